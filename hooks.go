package medkb

import "github.com/medkb/medkb/internal/hook"

// DefaultHookTimeout bounds one request to a model hook (HTTPReranker,
// StanceJudge) whose Timeout is zero.
const DefaultHookTimeout = hook.DefaultTimeout
