// Resolves a page module's import as the site serves it: the static files of every app sit
// under one /static/ tree there, so "../../realtime/socket.js" from games/static/games/game/
// is realtime/static/realtime/socket.js on disk (Django's app-directories finder).
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const ROOT = path.resolve(fileURLToPath(import.meta.url), "../../..");
const APPS = readdirSync(ROOT).filter((name) => existsSync(path.join(ROOT, name, "static")));

export async function resolve(specifier, context, nextResolve) {
  const found = await nextResolve(specifier, context).catch((error) => error);
  if (!(found instanceof Error)) return found;
  const parent = context.parentURL && fileURLToPath(context.parentURL);
  const staticRoot = parent && APPS.map((app) => path.join(ROOT, app, "static"))
    .find((dir) => parent.startsWith(dir + path.sep));
  if (!staticRoot || !specifier.startsWith(".")) throw found;
  const served = path.relative(staticRoot, path.resolve(path.dirname(parent), specifier));
  for (const app of APPS) {
    const candidate = path.join(ROOT, app, "static", served);
    if (existsSync(candidate)) return nextResolve(pathToFileURL(candidate).href, context);
  }
  throw found;
}
