// Stand-ins for the socket tests: a WebSocket the test drives, and timers run by hand.

/** A WebSocket stand-in: records what is sent; the test opens, answers and closes it. */
export class FakeSocket extends EventTarget {
  static OPEN = 1;
  static made = [];

  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event("open"));
  }

  answer(msg) {
    const e = new Event("message");
    e.data = JSON.stringify(msg);
    this.dispatchEvent(e);
  }

  drop(code = 1006) {
    this.readyState = 3;
    const e = new Event("close");
    e.code = code;
    this.dispatchEvent(e);
  }

  close() {
    this.drop(1000);
  }

  actions() {
    return this.sent.filter((m) => m.type === "action");
  }
}

/** Timers the test runs by hand: run() fires every timer due, in order of delay. */
export function manualTimers() {
  const timers = new Map();
  let next = 1;
  return {
    delays: [],
    setTimeout(f, ms) {
      this.delays.push(ms);
      timers.set(next, { f, ms });
      return next++;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    run() {
      const due = [...timers.entries()].sort((a, b) => a[1].ms - b[1].ms);
      timers.clear();
      for (const [, t] of due) t.f();
    },
    get size() {
      return timers.size;
    },
  };
}
