// Package hook posts JSON to the model servers medkb reaches but does
// not ship: a rerank server (medkb.HTTPReranker), an OpenAI-compatible
// chat server (medkb.StanceJudge, and bench pack's answer-accuracy
// harness).
//
// An Endpoint is one server URL with its purpose ("rerank", "stance",
// "answer"). Every error it returns names the purpose and the URL and
// says what went wrong, in the words an operator needs: the server could
// not be reached, did not answer within the timeout, answered with an
// error status, or answered something the caller cannot read
// (Malformed, which quotes the start of the reply). A request that ends
// because the caller's context ended wraps the context's error, so
// callers can tell cancellation from a slow server.
//
// Chat is the one request both chat users make: a list of messages at
// temperature 0, the reply's first choice back as text.
package hook
