// The page "Waiting for the database" (templates/503.html, pages/database_away.py): it asks
// for the page behind its "Try again now" link every few seconds, in the background, and
// goes there once the server answers with anything but 503. A timed reload instead would
// change the page under its reader every few seconds, an accessibility failure.
(() => {
  const link = document.getElementById("retry-now");
  const seconds = Number(link && link.dataset.retrySeconds) || 5;
  if (!link) return;
  const ask = async () => {
    try {
      const answer = await fetch(link.href, { cache: "no-store", credentials: "same-origin" });
      if (answer.status !== 503) {
        window.location.replace(link.href);
        return;
      }
    } catch {
      // The server itself cannot be reached: ask again all the same.
    }
    window.setTimeout(ask, seconds * 1000);
  };
  window.setTimeout(ask, seconds * 1000);
})();
