"""The protocol version a server speaks and a client expects."""

PROTOCOL_VERSION = 2  # 2: a websocket message carries one or more frames, a line each
