#!/usr/bin/env python3
"""A client of the medkb HTTP API v1, with Python's standard library only.

A `medkb serve --db DIR` answers on the unix socket DIR/medkb.sock (no
token: the socket is the owner's alone) and, with --listen ADDR, on TCP,
where every request needs the server's bearer token. The API is described
in openapi.json beside this file.

    from medkb_client import Client, MedkbError

    kb = Client(socket_path="/data/kb/medkb.sock")
    res = kb.query("RETRIEVE $q WHERE patient = $p PACK budget 512",
                   params={"q": "chest pain", "p": "P001"})
    print(res["context"])          # the evidence, ready for a prompt
    for line in res["sources"]:    # where each citation comes from
        print(line)

    remote = Client(base_url="http://127.0.0.1:7070", token="s3cret")
    try:
        remote.query('RETRIEVE "troponin" PACK budgte 12')
    except MedkbError as e:
        print(e.code, e.line, e.column)   # parse_error 1 26

Values given in params are bound to the statement's $names after parsing and
never spliced into its text, so a value cannot change what it says. As a
command:

    python3 medkb_client.py --socket /data/kb/medkb.sock \\
        --param q='chest pain' 'RETRIEVE $q PACK budget 512'
"""

import argparse
import http.client
import json
import os
import socket
import sys
import urllib.parse

__all__ = ["Client", "MedkbError"]

API_PREFIX = "/v1"


class MedkbError(Exception):
    """An error the server answered with: {"error": {...}} and a non-2xx status.

    status is the HTTP status; code the API's error code ("parse_error",
    "not_found", "unauthorized", ...); line and column place a parse error
    in the statement (0 otherwise); index and id name the document of a
    "bad_document" error (index from 0; -1 and "" otherwise).
    """

    def __init__(self, status, code, message, line=0, column=0, index=-1, id=""):
        super().__init__(f"medkb: {code} ({status}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.index = index
        self.id = id


class _UnixHTTPConnection(http.client.HTTPConnection):
    """An HTTPConnection over a unix socket; the Host header says localhost."""

    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(self.timeout)
            s.connect(self._path)
        except OSError:
            s.close()
            raise
        self.sock = s


class Client:
    """A connection to one medkb server: Client(socket_path=...) for the unix
    socket of a store, or Client(base_url="http://HOST:PORT", token=...) for
    a TCP listener. Each call is one HTTP request on a new connection, so a
    Client can be shared by threads. timeout bounds each wait for the
    server, in seconds; None (the default) waits as long as the server
    works (bound a query with timeout_ms instead).

        kb = Client(socket_path="/data/kb/medkb.sock")
        print(kb.health()["generation"])
    """

    def __init__(self, socket_path=None, base_url=None, token=None, timeout=None):
        if (socket_path is None) == (base_url is None):
            raise ValueError("medkb: give exactly one of socket_path and base_url")
        self._socket_path = socket_path
        self._timeout = timeout
        self._token = token
        if base_url is not None:
            u = urllib.parse.urlsplit(base_url)
            if u.scheme not in ("http", "https") or not u.hostname:
                raise ValueError(f"medkb: base_url {base_url!r}: want http://HOST:PORT")
            self._scheme, self._host, self._port = u.scheme, u.hostname, u.port
            self._base_path = u.path.rstrip("/")
        else:
            self._base_path = ""

    def _connection(self):
        if self._socket_path is not None:
            return _UnixHTTPConnection(self._socket_path, self._timeout)
        if self._scheme == "https":
            return http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)

    def _open(self, method, path, body=None):
        """Sends one request and returns (connection, response) for a 2xx
        answer; raises MedkbError for any other."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._token:
            headers["Authorization"] = "Bearer " + self._token
        conn = self._connection()
        try:
            conn.request(method, self._base_path + API_PREFIX + path, body=data, headers=headers)
            resp = conn.getresponse()
            if 200 <= resp.status < 300:
                return conn, resp
            raw = resp.read()
        except BaseException:
            conn.close()
            raise
        conn.close()
        raise _error(resp.status, raw)

    def _call(self, method, path, body=None):
        conn, resp = self._open(method, path, body)
        try:
            return json.loads(resp.read())
        finally:
            conn.close()

    def health(self):
        """The server's identity: {"api": 1, "version", "dir", "generation",
        "read_only", "pid"}.

            assert kb.health()["api"] == 1
        """
        return self._call("GET", "/health")

    def query(self, statement, params=None, explain=False, timeout_ms=0):
        """Runs one RETRIEVE statement and returns the Result as a dict (the
        JSON of `medkb query --json`). params binds the statement's $names
        (strings or numbers); with explain=True nothing runs and the plan is
        returned as a string; timeout_ms > 0 bounds the query on the server
        (a "timeout" error past it).

            r = kb.query("RETRIEVE $q WHERE patient = $p", params={"q": "chest pain", "p": "P001"})
            print(r["context"])
        """
        body = {"query": statement}
        if params:
            body["params"] = params
        if explain:
            body["explain"] = True
        if timeout_ms:
            body["timeout_ms"] = int(timeout_ms)
        res = self._call("POST", "/query", body)
        return res["plan"] if explain else res

    def ingest(self, docs=None, entities=None, triples=None):
        """Adds or replaces documents (dicts with at least "id" and "text")
        and adds knowledge-graph entities and triples, in one request.
        Returns {"docs", "chunks", "deleted", "seq", "entities", "triples"}
        and "index_error" when the write committed but the index could not
        follow it. A refused document raises MedkbError "bad_document" with
        its index and id, and nothing is written.

            kb.ingest(docs=[{"id": "n1", "text": "Troponin I 2.3 ng/mL", "type": "lab"}])
        """
        body = {}
        if docs:
            body["docs"] = list(docs)
        if entities:
            body["entities"] = list(entities)
        if triples:
            body["triples"] = list(triples)
        return self._call("POST", "/ingest", body)

    def delete(self, ids):
        """Removes documents by id; an id not stored counts for nothing.

            kb.delete(["n1"])
        """
        return self._call("POST", "/delete", {"ids": list(ids)})

    def stats(self):
        """The store's counters, as `medkb stats --json`.

            print(kb.stats()["docs"])
        """
        return self._call("GET", "/stats")

    def show(self, doc_id):
        """One document with its chunks (a DocView); MedkbError "not_found"
        (404) for an unknown id.

            for c in kb.show("P001-cc-01")["chunks"]:
                print(c["tier"], c["text"])
        """
        return self._call("GET", "/docs/" + urllib.parse.quote(doc_id, safe=""))

    def export(self):
        """Yields every document as a dict, as `medkb export` writes them,
        read line by line from the server's NDJSON stream.

            with open("backup.jsonl", "w") as f:
                for d in kb.export():
                    f.write(json.dumps(d) + "\\n")
        """
        conn, resp = self._open("GET", "/export")
        try:
            for line in resp:
                line = line.strip()
                if line:
                    yield json.loads(line)
        finally:
            conn.close()

    def check(self):
        """Checks the store and its indexes, repairing an index-only problem:
        {"ok", "problems", "fixed", "repaired", "stats"}.

            assert kb.check()["ok"]
        """
        return self._call("POST", "/check")

    def rebuild(self, **opts):
        """Rebuilds the store into a new generation and switches to it.
        Options: chunk_tokens (0: 256), reclassify (re-classify documents
        whose tier was given), grace_ms (0: the default wait before the
        old generation is removed). Returns the RebuildResult.

            kb.rebuild(chunk_tokens=128)
        """
        return self._call("POST", "/rebuild", opts)

    def backup(self, dest):
        """Copies the store to dest, an absolute path on the server's
        machine that does not exist yet; returns the copy's Stats.

            kb.backup("/backups/kb-2024-03-05")
        """
        return self._call("POST", "/backup", {"dest": dest})


def _error(status, raw):
    """Turns a non-2xx answer into a MedkbError; a body that is not the
    API's error object (a proxy's page) becomes its message."""
    try:
        e = json.loads(raw)["error"]
        return MedkbError(status, e.get("code", ""), e.get("message", ""), e.get("line", 0),
                          e.get("column", 0), e.get("index", -1), e.get("id", ""))
    except (ValueError, KeyError, TypeError, AttributeError):
        return MedkbError(status, "", raw.decode("utf-8", "replace").strip())


def main(argv=None):
    ap = argparse.ArgumentParser(description="Run one medkb query and print its context.")
    ap.add_argument("statement", help="a RETRIEVE statement")
    ap.add_argument("--socket", help="the server's unix socket (DIR/medkb.sock)")
    ap.add_argument("--url", help="the server's TCP address, http://HOST:PORT")
    ap.add_argument("--token", default=os.environ.get("MEDKB_TOKEN"),
                    help="the bearer token for --url (default $MEDKB_TOKEN)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="bind $NAME to VALUE, a string; repeatable")
    ap.add_argument("--json", action="store_true", help="print the whole Result as JSON")
    args = ap.parse_args(argv)
    if (args.socket is None) == (args.url is None):
        ap.error("give exactly one of --socket and --url")
    params = {}
    for p in args.param:
        name, eq, value = p.partition("=")
        if not eq or not name:
            ap.error(f"--param {p!r}: want NAME=VALUE")
        params[name] = value
    kb = Client(socket_path=args.socket, base_url=args.url, token=args.token)
    try:
        res = kb.query(args.statement, params=params)
    except MedkbError as e:
        print(e, file=sys.stderr)
        return 1
    if args.json:
        json.dump(res, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(res["context"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
