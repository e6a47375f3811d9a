"""The game server behind ``vectorwar serve``: HTTP API, WebSocket, storage (see docs/web.md)."""
