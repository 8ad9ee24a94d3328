//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb"
)

// syncBuffer is a bytes.Buffer that a running command writes while the
// test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestServeRefusesListenWithoutToken(t *testing.T) {
	t.Setenv("MEDKB_TOKEN", "")
	dir := filepath.Join(t.TempDir(), "kb")
	code, _, errOut := cli(t, "", "serve", "--db", dir, "--listen", "127.0.0.1:0")
	if code != 1 || !strings.Contains(errOut, "--listen needs a token") {
		t.Errorf("serve --listen without a token: %d %s", code, errOut)
	}
}

// TestServe starts medkb serve in process, talks to it on the socket and
// on TCP, and stops it with SIGTERM, as a service manager would.
func TestServe(t *testing.T) {
	db := sampleStore(t)
	dir := db[1]
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile}, db...),
			strings.NewReader(""), &bytes.Buffer{}, &errOut)
	}()
	var c *medkb.Client
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if c, err = medkb.Connect(dir); err == nil {
			break
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, errOut.String())
		default:
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("no server after 20 s: %v; %s", err, errOut.String())
		}
	}
	defer c.Close()
	res, err := c.QueryParams(context.Background(), `RETRIEVE $q PACK budget 128`, medkb.Params{"q": "chest pain"})
	if err != nil || len(res.Items) == 0 {
		t.Fatalf("query through the socket: %v", err)
	}

	if code, _, eo := cli(t, "", "serve", "--db", dir); code != 1 || !strings.Contains(eo, "already running") {
		t.Errorf("a second serve: %d %s", code, eo)
	}

	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(errOut.String())
	if !strings.HasPrefix(errOut.String(), "medkb: serving "+dir+" on "+medkb.SocketPath(dir)+" and http://") || url == "" {
		t.Fatalf("start line: %q", errOut.String())
	}
	tc, err := medkb.Dial(url, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	if s, err := tc.Stats(); err != nil || s.Docs == 0 {
		t.Errorf("stats on TCP with the token: %v %v", s, err)
	}
	anon, _ := medkb.Dial(url, "")
	defer anon.Close()
	var re *medkb.RemoteError
	if _, err := anon.Stats(); !errors.As(err, &re) || re.Status != 401 {
		t.Errorf("stats on TCP without the token: %v", err)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited with %d after SIGTERM: %s", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if _, err := os.Stat(medkb.SocketPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket outlives the server: %v", err)
	}
	if _, err := medkb.Connect(dir); !errors.Is(err, medkb.ErrNoServer) {
		t.Errorf("Connect after the stop: %v", err)
	}
}
