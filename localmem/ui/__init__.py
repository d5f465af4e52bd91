"""``localmem ui``: a small local page to see and correct what is remembered
(needs the ``ui`` extra: Starlette, Jinja2, uvicorn).

``guard`` (who may reach it), ``pages`` (the pages over the store's public
API), ``server`` (uvicorn on 127.0.0.1). The web parts load when this package
is imported, never with ``localmem`` itself.
"""

from .guard import Guard, Launch
from .pages import create_app
from .server import bind, serve, server

__all__ = ["Guard", "Launch", "bind", "create_app", "serve", "server"]
