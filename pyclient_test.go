package medkb

import (
	"net"
	"os"
	"os/exec"
	"testing"
)

// TestPythonClient runs the Python client's tests (docs/api) against a
// server of the sample store: on its unix socket, and on a TCP listener
// that wants a token. Without python3 on PATH it skips, unless
// MEDKB_REQUIRE_PYTHON=1 (CI) makes that a failure.
func TestPythonClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("MEDKB_REQUIRE_PYTHON") == "1" {
			t.Fatalf("MEDKB_REQUIRE_PYTHON=1 but %v", err)
		}
		t.Skip("python3 is not on PATH")
	}
	db := openSample(t)
	serve(t, db)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const token = "python-test-token"
	serveOn(t, db, tcp, &ServeOptions{Token: token})

	cmd := exec.Command(python, "-m", "unittest", "-v", "docs/api/test_medkb_client.py")
	cmd.Env = append(os.Environ(),
		"MEDKB_SOCKET="+SocketPath(db.Dir()),
		"MEDKB_URL=http://"+tcp.Addr().String(),
		"MEDKB_TOKEN="+token,
		"PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, out)
	}
	t.Logf("%s", out)
}
