// ESLint (pinned in package.json / package-lock.json) over the page's JavaScript; `make lint` runs it.
import js from "@eslint/js";
import globals from "globals";

// Django's JavaScript catalogue (`{% statici18n LANGUAGE_CODE %}`) defines these on window.
const djangoI18n = { gettext: "readonly", ngettext: "readonly", interpolate: "readonly" };

const APP_MODULES = [
  "games/static/**/*.js",
  "lobby/static/**/*.js",
  "pages/static/**/*.js",
  "tournaments/static/**/*.js",
  "user_socket/static/**/*.js",
];

export default [
  { files: APP_MODULES, ...js.configs.recommended },
  {
    files: APP_MODULES,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...djangoI18n },
    },
  },
  // The site's classic scripts (base.html's, blocking in <head>, and the 503 page's).
  { files: ["static/js/**/*.js"], ...js.configs.recommended },
  {
    files: ["static/js/**/*.js"],
    ignores: ["static/js/local-time.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.browser },
  },
  // Its one module: times in the reader's zone, on the pages that show one.
  {
    files: ["static/js/local-time.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  // static/jsi18n/ is Django's catalogue as `make messages` generates it, not ours to lint.
  { ignores: ["node_modules/", ".venv/", "var/", "test-artifacts/", "static/jsi18n/"] },
];
