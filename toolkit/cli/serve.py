"""`duelkit serve`: the playtest studio in the browser (start page, play, replay), reloaded on every save."""

from __future__ import annotations

import argparse
import errno
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, add_command, add_data_dir, err, out
from toolkit.problems import DuelkitError, UsageError

DEFAULT_PORT = 8765
LOCAL = "127.0.0.1"
YAML_SUFFIXES = (".yaml", ".yml")


def add_parser(commands: Any) -> None:
    serve = add_command(commands, "serve", "play and replay the games in the browser (a local web studio)",
                        ["duelkit serve", "duelkit serve mygame --port 8800 --no-open",
                         "duelkit serve --host 0.0.0.0   (friends on the same network join by the printed address)"])
    add_data_dir(serve)
    serve.add_argument("--host", default=LOCAL, metavar="ADDR",
                       help=f"address to listen on (default: {LOCAL}, this computer only; 0.0.0.0: every network "
                            "this computer is on)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                       help=f"port (default: {DEFAULT_PORT}; 0: any free port)")
    serve.add_argument("--no-open", action="store_true", help="do not open the browser")
    serve.set_defaults(run=run)


def _bind(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise UsageError(f"--port is 0..65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise UsageError(f"--host '{host[:60]}' is not an address of this computer") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise DuelkitError(f"port {port} is in use (another `duelkit serve`?): pass --port N, or --port 0 "
                               "for any free port") from None
        raise DuelkitError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(64)
    return sock


def _local_addresses() -> list[str]:
    """This computer's addresses on its networks (for --host 0.0.0.0): what to give friends."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def _hosts(host: str, port: int) -> frozenset[str]:
    """The Host headers the server answers to: its own names and addresses, with the port."""
    names = {host, "localhost", LOCAL, "[::1]"} if host in (LOCAL, "localhost", "::1") else {host}
    if host in ("0.0.0.0", "::", ""):
        names = {"localhost", LOCAL, "[::1]", *_local_addresses(), socket.gethostname()}
    return frozenset(f"{name.lower()}:{port}" for name in names)


def _watch(studio: Any, root: Path, stop: threading.Event) -> None:
    """Reload the data after every batch of saved YAML files (watchfiles: the OS's change events)."""
    import watchfiles

    def is_yaml(change: Any, path: str) -> bool:
        del change
        return path.endswith(YAML_SUFFIXES) and "/output/" not in path.replace("\\", "/")

    for _ in watchfiles.watch(root, watch_filter=is_yaml, step=50, stop_event=stop, raise_interrupt=False):
        studio.reload()
        threading.Thread(target=studio.warm, daemon=True).start()
        errors = len(studio.errors())
        out(f"data reloaded ({errors} error{'s' if errors != 1 else ''})" if errors or studio.error
            else "data reloaded")
        sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from toolkit.paths import bundled_root
    from toolkit.web.app import create_app
    from toolkit.web.studio import Studio

    if args.data_dir is not None and not Path(args.data_dir).is_dir():
        raise UsageError(f"'{args.data_dir}' is not a folder")
    sock = _bind(args.host, args.port)
    port = sock.getsockname()[1]
    studio = Studio(args.data_dir)
    where = f"project {args.data_dir}" if args.data_dir else "the bundled demo games (no duelkit.yaml here or above)"
    app = create_app(studio, _hosts(args.host, port), where)
    shown_host = LOCAL if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{shown_host if ':' not in shown_host else '[' + shown_host + ']'}:{port}/"
    out(f"duelkit studio: {url}  ({where}; Ctrl+C stops it)")
    if args.host in ("0.0.0.0", "::"):
        for address in _local_addresses():
            out(f"  friends on your network: http://{address}:{port}/")
    if studio.errors() or studio.error:
        err(f"the data has problems ({len(studio.errors())}); the start page lists them")
    sys.stdout.flush()
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(studio, args.data_dir or bundled_root(), stop), daemon=True)
    watcher.start()
    threading.Thread(target=studio.warm, daemon=True).start()
    if not args.no_open:
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", ws="none")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        stop.set()
        sock.close()
    return EXIT_OK
