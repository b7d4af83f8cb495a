// `node --import ./tests/js/register.mjs --test tests/js/`: page modules import each other
// by the paths the site serves them at (tests/js/static-finder.mjs).
import { register } from "node:module";

register("./static-finder.mjs", import.meta.url);
