// "Play now": joins the matchmaking queue over the lobby WebSocket and shows its state.
// The server is the only judge: this page only displays what the socket says, asks for
// the status every 2 s (which also proves the page is still open) and follows the
// redirect to the new game. Closing the page closes the socket, which leaves the queue.
(function () {
  "use strict";
  const root = document.getElementById("play-now");
  if (!root) return;
  const labels = JSON.parse(document.getElementById("play-now-labels").textContent);
  const el = (role) => root.querySelector(`[data-role="${role}"]`);
  const STATUS_EVERY_MS = 2000;
  let socket = null;
  let wanted = false; // the player asked to be in the queue
  let status = null;
  let statusAt = 0;
  let poll = null;
  let attempt = 0;
  // Close codes after which reconnecting cannot help (games/consumers.py).
  const SIGNED_OUT = 4401;
  const FINAL = new Set([SIGNED_OUT, 4403, 4404]);

  function show(message) {
    el("message").textContent = message;
  }

  function render() {
    const waiting = Boolean(status && status.in_queue);
    root.dataset.state = waiting ? "waiting" : wanted ? "joining" : "idle";
    el("facts").hidden = !waiting;
    el("join").hidden = wanted;
    el("leave").hidden = !wanted;
    if (!waiting) return;
    const waited = status.wait_seconds + (Date.now() - statusAt) / 1000;
    el("waiting").textContent = String(status.waiting);
    el("wait").textContent = String(Math.floor(waited));
    el("range").textContent = `${status.rating - status.range} – ${status.rating + status.range} (±${status.range})`;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function onMessage(event) {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    if (data.type === "redirect" && data.url) {
      show(labels.found);
      window.location.assign(data.url);
    } else if (data.type === "queue") {
      if (data.url && wanted) {
        show(labels.found);
        window.location.assign(data.url);
        return;
      }
      status = data;
      statusAt = Date.now();
      if (data.in_queue) show(labels.waiting);
      else if (wanted) send({ type: "queue", do: "join" }); // dropped meanwhile: rejoin
      render();
    } else if (data.type === "error") {
      show(data.message || labels.error);
    }
  }

  function showClosed(code) {
    const message = el("message");
    if (code === SIGNED_OUT) {
      const link = document.createElement("a");
      link.href = labels.login_url;
      link.textContent = labels.sign_in;
      message.replaceChildren(labels.signed_out + " ", link);
    } else {
      message.textContent = labels.forbidden;
    }
    message.setAttribute("role", "alert");
    el("join").hidden = true;
    el("leave").hidden = true;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}${root.dataset.wsPath}`);
    socket.addEventListener("open", () => {
      attempt = 0;
      if (wanted) send({ type: "queue", do: "join" });
      else send({ type: "queue", do: "status" });
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      status = null;
      if (FINAL.has(event.code)) {
        wanted = false;
        window.clearInterval(poll);
        window.clearInterval(redraw);
        showClosed(event.code);
        return;
      }
      render();
      if (wanted) show(labels.reconnecting);
      // Jittered exponential back-off (0.5 s doubling, capped at 8 s).
      const delay = Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      attempt += 1;
      window.setTimeout(connect, delay);
    });
  }

  el("join").addEventListener("click", () => {
    wanted = true;
    show(labels.joining);
    send({ type: "queue", do: "join" });
    render();
  });
  el("leave").addEventListener("click", () => {
    wanted = false;
    status = null;
    send({ type: "queue", do: "leave" });
    show(labels.left);
    render();
  });

  poll = window.setInterval(() => {
    if (wanted) send({ type: "queue", do: "status" });
  }, STATUS_EVERY_MS);
  const redraw = window.setInterval(render, 1000);
  window.addEventListener("pagehide", () => {
    window.clearInterval(poll);
    if (wanted) send({ type: "queue", do: "leave" });
  });
  connect();
  render();
})();
