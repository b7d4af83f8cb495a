// The lobby's live list: re-rendered from every {"type": "challenges"} push of /ws/lobby/,
// and {"type": "redirect"} sends the player to a game that was just created for them.
// Without JavaScript the page still works: its forms are plain POSTs.
(function () {
  "use strict";

  const list = document.getElementById("challenge-list");
  if (!list) return;
  const labels = JSON.parse(document.getElementById("lobby-labels").textContent);
  const csrfInput = document.querySelector("input[name=csrfmiddlewaretoken]");
  const csrf = csrfInput ? csrfInput.value : "";

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, key) => values[key] || "");
  }

  function urlFor(kind, id) {
    // data-*-url holds the URL for challenge 0; swap in the real id.
    return list.dataset[kind + "Url"].replace("/0/", "/" + encodeURIComponent(id) + "/");
  }

  function form(kind, id, label, primary) {
    const f = document.createElement("form");
    f.className = "inline-form";
    f.method = "post";
    f.action = urlFor(kind, id);
    const token = document.createElement("input");
    token.type = "hidden";
    token.name = "csrfmiddlewaretoken";
    token.value = csrf;
    const button = document.createElement("button");
    button.type = "submit";
    button.className = primary ? "button button--primary" : "button button--ghost";
    button.textContent = label;
    f.append(token, button);
    return f;
  }

  function row(c) {
    const li = document.createElement("li");
    li.className = "challenge card";
    li.dataset.challengeId = c.id;
    const who = document.createElement("span");
    who.className = "challenge__who";
    if (c.mine) {
      who.textContent = c.opponent ? fill(labels.you_challenged, c) : labels.your_open;
    } else if (c.to_me) {
      who.textContent = fill(labels.challenges_you, c);
    } else {
      who.textContent = fill(labels.open_from, c);
    }
    li.append(who);
    if (c.mine) {
      li.append(form("cancel", c.id, labels.cancel, false));
    } else {
      li.append(form("accept", c.id, labels.accept, true));
      if (c.to_me) li.append(form("decline", c.id, labels.decline, false));
    }
    return li;
  }

  function render(challenges) {
    // textContent everywhere: usernames are data, never markup.
    list.replaceChildren(...challenges.map(row));
    if (!challenges.length) {
      const empty = document.createElement("li");
      empty.className = "muted challenge-list__empty";
      empty.textContent = labels.empty;
      list.append(empty);
    }
  }

  // Close codes after which reconnecting cannot help (games/consumers.py).
  const SIGNED_OUT = 4401;
  const FINAL = new Set([SIGNED_OUT, 4403, 4404]);

  function showClosed(code) {
    const note = document.createElement("p");
    note.className = "message message--warning";
    note.setAttribute("role", "alert");
    note.dataset.role = "socket-closed";
    if (code === SIGNED_OUT) {
      const link = document.createElement("a");
      link.href = labels.login_url;
      link.textContent = labels.sign_in;
      note.append(labels.signed_out + " ", link);
    } else {
      note.textContent = labels.forbidden;
    }
    list.before(note);
  }

  let attempt = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + list.dataset.wsPath);
    socket.addEventListener("open", () => { attempt = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "challenges") render(message.challenges);
      else if (message.type === "redirect") location.assign(message.url);
    });
    socket.addEventListener("close", (event) => {
      if (FINAL.has(event.code)) {
        showClosed(event.code);
        return;
      }
      // Jittered exponential back-off (0.5 s doubling, capped at 10 s): pages that lost
      // the same server do not all come back at once.
      const delay = Math.min(10000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      attempt += 1;
      setTimeout(connect, delay);
    });
  }
  connect();
})();
