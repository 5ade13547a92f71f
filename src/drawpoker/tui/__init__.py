"""``drawpoker play``: a full-screen terminal client (Textual) for a drawpoker server.

It speaks the wire protocol through ``drawpoker.protocol`` like any other client;
nothing here imports the server. ``app`` is the application, ``model`` the table
as the client rebuilds it from the wire, ``net`` the session and the websocket
(which reconnects by itself), ``render`` the table drawn as text, ``i18n`` the
browser client's translation catalogue. Documented in docs/tui.md.
"""
