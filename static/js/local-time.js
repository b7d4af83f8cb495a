// Times in the reader's own time zone: every <time data-local> the server wrote in UTC is
// rewritten in the browser's zone and the page's language ("datetime", "time" or "date"),
// and its title keeps the UTC time it was served with. Loaded by the templates that show one.
const language = document.documentElement.lang || undefined;
const STYLES = {
  datetime: { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" },
  time: { hour: "2-digit", minute: "2-digit" },
  date: { dateStyle: "medium" },
};

/** A served UTC time as the reader's local one (the <time> kept, its title in UTC). */
export function localize(node) {
  const when = new Date(node.dateTime);
  if (Number.isNaN(when.getTime())) return;
  const style = STYLES[node.dataset.local] ?? STYLES.datetime;
  node.title = `${when.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  node.textContent = new Intl.DateTimeFormat(language, style).format(when);
  node.dataset.localized = "true";
}

for (const node of document.querySelectorAll("time[data-local]")) localize(node);
