// REST helpers and the one websocket the client keeps open (reconnecting).

export async function api(path, { method = "GET", body } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { ok: response.ok, status: response.status, data };
}

/** A websocket that reconnects with back-off and tells its owner each time it opens. */
export class Socket {
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.ws = null;
    this.counter = 0;
    this.delay = 250;
    this.closed = false;
    this.waiting = new Map(); // ref -> {resolve}
  }

  connect() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.delay = 250;
      this.onStatus("online");
    });
    ws.addEventListener("message", (event) => {
      // One websocket message carries one or more frames, a line each.
      for (const line of String(event.data).split("\n")) this.dispatch(line);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const waiter of this.waiting.values()) waiter({ type: "error", code: "offline", message: "" });
      this.waiting.clear();
      if (this.closed) return;
      this.onStatus("offline");
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  /** One frame from the server. */
  dispatch(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if ((message.type === "ok" || message.type === "error") && message.ref) {
      const waiter = this.waiting.get(message.ref);
      if (waiter) {
        this.waiting.delete(message.ref);
        waiter(message);
      }
    }
    if (message.type === "welcome") this.onOpen(message);
    this.onMessage(message);
  }

  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect();
  }

  /** Wait (up to ``ms``) until the socket is open. */
  async open(ms = 5000) {
    const end = Date.now() + ms;
    while (!(this.ws && this.ws.readyState === WebSocket.OPEN) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Send a message; resolves with the server's ``ok`` or ``error`` reply. */
  async send(message) {
    const open = await this.open();
    return new Promise((resolve) => {
      if (!open || !this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ type: "error", code: "offline", message: "" });
        return;
      }
      this.counter += 1;
      const id = `c${this.counter}`;
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ id, ...message }));
    });
  }
}
