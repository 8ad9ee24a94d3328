"""Tests of medkb_client against a running server of the sample store.

MEDKB_SOCKET names the server's unix socket; MEDKB_URL and MEDKB_TOKEN,
when set, a TCP listener of the same server and its token. The Go test
TestPythonClient starts both and runs, from the module root:

    python3 -m unittest docs/api/test_medkb_client.py
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from medkb_client import Client, MedkbError, main  # noqa: E402

SOCKET = os.environ.get("MEDKB_SOCKET")
URL = os.environ.get("MEDKB_URL")
TOKEN = os.environ.get("MEDKB_TOKEN")

PATIENT_QUERY = "RETRIEVE $q WHERE patient = $p PACK budget 256"


@unittest.skipUnless(SOCKET, "MEDKB_SOCKET is not set")
class SocketTest(unittest.TestCase):
    """Every method over the unix socket."""

    def setUp(self):
        self.kb = Client(socket_path=SOCKET)

    def patient_docs(self, patient):
        res = self.kb.query(PATIENT_QUERY, params={"q": "chest pain", "p": patient})
        return [it["doc"] for it in res["items"] or []]

    def test_health(self):
        h = self.kb.health()
        self.assertEqual(h["api"], 1)
        self.assertIsInstance(h["pid"], int)
        self.assertFalse(h["read_only"])
        self.assertTrue(h["generation"])

    def test_query(self):
        res = self.kb.query('RETRIEVE "chest pain troponin" PACK budget 256')
        self.assertEqual(res["mode"], "run")
        self.assertTrue(res["items"])
        self.assertLessEqual(res["tokens_used"], 256)
        self.assertIn("[1]", res["context"])
        self.assertEqual(len(res["sources"]), len(res["items"]))
        item = res["items"][0]
        self.assertEqual(item["rank"], 1)
        self.assertIn("provenance", item)

    def test_explain(self):
        plan = self.kb.query(PATIENT_QUERY, params={"q": "troponin", "p": "P001"}, explain=True)
        self.assertIsInstance(plan, str)
        self.assertIn("budget=256", plan)

    def test_params_bind_and_do_not_inject(self):
        docs = self.patient_docs("P001")
        self.assertTrue(docs, "no item for patient P001")
        for d in docs:
            self.assertTrue(d.startswith("P001-"), d)
        # A value that would close the string and comment out the filter
        # is only a patient id, which matches nobody.
        self.assertEqual(self.patient_docs('P001" --'), [])

    def test_parse_error(self):
        with self.assertRaises(MedkbError) as cm:
            self.kb.query('RETRIEVE "troponin"\nPACK budgte 12')
        e = cm.exception
        self.assertEqual((e.status, e.code, e.line, e.column), (400, "parse_error", 2, 6))
        self.assertIn("budgte", e.message)

    def test_missing_param(self):
        with self.assertRaises(MedkbError) as cm:
            self.kb.query(PATIENT_QUERY, params={"q": "chest pain"})
        self.assertEqual(cm.exception.code, "parse_error")
        self.assertIn("$p", cm.exception.message)

    def test_timeout_ms(self):
        res = self.kb.query('RETRIEVE "troponin" LIMIT 3', timeout_ms=60000)
        self.assertLessEqual(len(res["items"]), 3)

    def test_stats(self):
        s = self.kb.stats()
        self.assertGreater(s["docs"], 0)
        self.assertGreater(s["entities"], 0)
        self.assertEqual(set(s["tiers"]), {"T1", "T2", "T3", "T4"})

    def test_show(self):
        v = self.kb.show("P001-cc-01")
        self.assertEqual(v["id"], "P001-cc-01")
        self.assertEqual(v["patient"], "P001")
        self.assertTrue(v["chunks"])
        self.assertNotIn("vector", v)
        with self.assertRaises(MedkbError) as cm:
            self.kb.show("no/such doc")
        self.assertEqual((cm.exception.status, cm.exception.code), (404, "not_found"))

    def test_export(self):
        docs = list(self.kb.export())
        self.assertEqual(len(docs), self.kb.stats()["docs"])
        self.assertIn("P001-cc-01", {d["id"] for d in docs})

    def test_ingest_show_delete(self):
        doc = {"id": "py-client-1", "text": "Troponin I 2.31 ng/mL, above the 99th percentile.",
               "type": "lab", "patient": "PY1", "time": "2024-03-05"}
        res = self.kb.ingest(docs=[doc],
                             entities=[{"name": "PyTestDisease", "type": "Disease"}],
                             triples=[{"head": "PyTestDrug", "head_type": "Drug", "relation": "treats",
                                       "tail": "PyTestDisease", "tail_type": "Disease"}])
        self.assertEqual((res["docs"], res["entities"], res["triples"]), (1, 2, 1))
        self.assertGreater(res["chunks"], 0)
        self.assertEqual(res["index_error"], "")
        self.assertEqual(self.kb.show("py-client-1")["tier"], "T2")
        self.assertEqual(self.patient_docs("PY1"), ["py-client-1"])
        res = self.kb.delete(["py-client-1", "never-stored"])
        self.assertEqual(res["docs"], 1)
        with self.assertRaises(MedkbError) as cm:
            self.kb.show("py-client-1")
        self.assertEqual(cm.exception.code, "not_found")

    def test_bad_document(self):
        with self.assertRaises(MedkbError) as cm:
            self.kb.ingest(docs=[{"id": "py-ok", "text": "fine"}, {"id": "py-bad", "text": "  "}])
        e = cm.exception
        self.assertEqual((e.status, e.code, e.index, e.id), (400, "bad_document", 1, "py-bad"))
        with self.assertRaises(MedkbError):
            self.kb.show("py-ok")  # nothing of the request was written

    def test_check(self):
        r = self.kb.check()
        self.assertTrue(r["ok"], r["problems"])
        self.assertEqual(r["problems"], [])
        self.assertGreater(r["stats"]["docs"], 0)

    def test_rebuild(self):
        before = self.kb.stats()
        r = self.kb.rebuild(grace_ms=1)
        self.assertNotEqual(r["from"], r["to"])
        self.assertEqual(r["docs"], before["docs"])
        self.assertEqual(self.kb.health()["generation"], r["to"])
        self.assertTrue(self.patient_docs("P001"))

    def test_backup(self):
        with tempfile.TemporaryDirectory() as tmp:
            dest = os.path.join(tmp, "copy")
            s = self.kb.backup(dest)
            self.assertEqual(s["docs"], self.kb.stats()["docs"])
            self.assertTrue(os.path.isdir(dest))
            shutil.rmtree(dest)
        with self.assertRaises(MedkbError) as cm:
            self.kb.backup("relative/path")
        self.assertEqual(cm.exception.code, "bad_request")

    def test_command_line(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["--socket", SOCKET, "--param", "q=chest pain", "--param", "p=P001", PATIENT_QUERY])
        self.assertEqual(code, 0)
        self.assertIn("[1]", out.getvalue())


@unittest.skipUnless(URL, "MEDKB_URL is not set")
class TCPTest(unittest.TestCase):
    """The TCP listener: the same API, behind the bearer token."""

    def test_token(self):
        kb = Client(base_url=URL, token=TOKEN)
        self.assertEqual(kb.health()["api"], 1)
        res = kb.query(PATIENT_QUERY, params={"q": "chest pain", "p": "P001"})
        self.assertTrue(res["items"])
        self.assertEqual(len(list(kb.export())), kb.stats()["docs"])

    def test_no_or_wrong_token(self):
        for token in (None, "wrong"):
            with self.assertRaises(MedkbError) as cm:
                Client(base_url=URL, token=token).stats()
            self.assertEqual((cm.exception.status, cm.exception.code), (401, "unauthorized"))


class ClientArgsTest(unittest.TestCase):
    def test_exactly_one_address(self):
        with self.assertRaises(ValueError):
            Client()
        with self.assertRaises(ValueError):
            Client(socket_path="/x.sock", base_url="http://127.0.0.1:1")
        with self.assertRaises(ValueError):
            Client(base_url="127.0.0.1:7070")


if __name__ == "__main__":
    unittest.main()
