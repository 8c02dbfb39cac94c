package standin

// jupyterMain is the stand-in JupyterLab's `jupyter` command: `jupyter lab
// --ip=... --port=N --ServerApp.root_dir=DIR` serves /api and /lab over
// HTTP as JupyterLab does, and, like JupyterLab, refuses a root_dir that
// does not exist. Other subcommands fail.
const jupyterMain = `import http.server, json, os, sys

from jupyterlab import VERSION


def main():
    args = sys.argv[1:]
    if not args or args[0] != "lab":
        sys.exit("jupyter stand-in: only 'jupyter lab' is served, got %r" % args)
    opts = {}
    for a in args[1:]:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            opts[k] = v
    root = opts.get("ServerApp.root_dir", os.getcwd())
    if not os.path.isdir(root):
        sys.exit("[C] Bad config encountered during initialization: No such directory: %r" % root)
    port = int(opts.get("port", "8888"))

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?")[0].rstrip("/")
            if path not in ("/api", "/lab"):
                self.send_error(404)
                return
            body = json.dumps({"version": VERSION, "root_dir": root}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    print("[I] Jupyter Server (stand-in %s) is running at http://%s:%d/lab, root %s" % (VERSION, opts.get("ip", "localhost"), port, root), flush=True)
    http.server.ThreadingHTTPServer((opts.get("ip", "127.0.0.1"), port), Handler).serve_forever()
`

// jupyterLabWheel is a wheel named jupyterlab whose `jupyter` console
// script is jupyterMain: pip installs it as it installs the real one.
func jupyterLabWheel(version string) (string, []byte, error) {
	return wheel("jupyterlab", version, []wheelFile{
		{"jupyterlab/__main__.py", jupyterMain},
		{"{dist}.dist-info/entry_points.txt", "[console_scripts]\njupyter = jupyterlab.__main__:main\n"},
	})
}
