// The order of "Play now"'s status polls against the pushes of a change (another tab of the
// player joined or left the queue): an answer to a poll sent before the latest change was
// read before it, and must not undo it (put a page that was told "left" back to waiting).

export class PollOrder {
  constructor() {
    this.sent = 0; // polls sent so far
    this.beforeChange = 0; // polls sent before the latest change was told
  }

  /** The id of the next poll to send. */
  next() {
    this.sent += 1;
    return `poll-${this.sent}`;
  }

  /** A change was pushed: the answers to the polls sent so far are stale. */
  changed() {
    this.beforeChange = this.sent;
  }

  /** Whether `message` answers a poll sent before the latest change. */
  stale(message) {
    const match = /^poll-(\d+)$/.exec(String(message.id ?? ""));
    return match !== null && Number(match[1]) <= this.beforeChange;
  }
}
