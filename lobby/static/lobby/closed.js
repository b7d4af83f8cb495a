// What the lobby's pages say when their socket is closed for good (4401, 4403, 4404): the
// socket stops reconnecting then, and the player is told why, with a sign-in link when
// signed out.

/** Fill `element` with the reason for close code `code`; `loginUrl` is the sign-in page. */
export function showSocketClosed(element, code, loginUrl) {
  element.setAttribute("role", "alert");
  if (code === 4401) {
    const link = document.createElement("a");
    link.href = `${loginUrl}?next=${encodeURIComponent(window.location.pathname)}`;
    link.textContent = gettext("Sign in again");
    element.replaceChildren(gettext("You are signed out.") + " ", link);
  } else {
    element.textContent = gettext(
      "This page may not connect to the game server. Reload it to try again.",
    );
  }
}
