package golden

import "testing"

func TestParse(t *testing.T) {
	cases, err := Parse("# about\n\nrun a=1 b\nline one\nline two\n----\nout\n\nmore\n====\nnext\n----\n====\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	c := cases[0]
	if c.Cmd != "run" || c.Args["a"] != "1" || c.Args["b"] != "" || c.Input != "line one\nline two" || c.Want != "out\n\nmore" || c.Line != 3 {
		t.Fatalf("case 0: %+v", c)
	}
	if c.head != "# about\n\nrun a=1 b\n" {
		t.Fatalf("head %q", c.head)
	}
	if cases[1].Input != "" || cases[1].Want != "" {
		t.Fatalf("case 1: %+v", cases[1])
	}
	if _, err := Parse("run\nno separator\n"); err == nil {
		t.Fatal("missing separator accepted")
	}
}
