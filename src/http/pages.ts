/**
 * The pages a person opens in a browser, served with no internet access (every asset comes from npm
 * packages installed with the service):
 * - GraphiQL at `GET /graphql` when the browser asks for HTML (Ruru's prebuilt GraphiQL bundle under
 *   /graphiql-assets/). Loading the page needs no key; the key the user pastes is kept in the browser's
 *   localStorage and sent as `Authorization: Bearer ...` with each query. Every other GET /graphql (a
 *   `query` parameter, or no HTML in Accept) goes on to the API, key required, as before.
 * - The REST reference at `GET /docs` (Redoc's standalone bundle) reading `/api/v1/openapi.json`.
 */
import fs from "node:fs";
import path from "node:path";
import { Router, type NextFunction, type Request, type Response } from "express";

type RuruStatic = typeof import("ruru/dist/static");
type RuruServer = typeof import("ruru/dist/server");
// Ruru's package exports map publishes these as ruru/static and ruru/server (TypeScript's node resolution reads dist/).
const ruruStatic = (): RuruStatic => require("ruru/static") as RuruStatic;
const ruruServer = (): RuruServer => require("ruru/server") as RuruServer;

export const GRAPHIQL_ASSETS = "/graphiql-assets/";
const REDOC_BUNDLE = "/docs/assets/redoc.standalone.js";

/** The browser's localStorage key holding the API key the user pasted. */
export const API_KEY_STORAGE = "edmarket.apiKey";

/** A query that works for any key, shown when GraphiQL opens for the first time. */
const FIRST_QUERY = `# Paste your API key above, then press the run button (or Ctrl-Enter).
# The Docs panel (book icon) lists every type and field.
query FirstQuery {
  districts(limit: 5, orderBy: student_count, orderAscending: false) {
    data {
      name
      state
      studentCount
      schoolCount
    }
    pagination {
      total
      hasMore
    }
  }
}
`;

export function browserPages(): Router {
  const router = Router();
  let graphiqlHtml: string | undefined;
  router.get("/graphql", (req: Request, res: Response, next: NextFunction) => {
    if (!wantsPage(req)) return next();
    graphiqlHtml ??= graphiqlPage();
    sendHtml(res, graphiqlHtml);
  });
  router.get(`${GRAPHIQL_ASSETS}*file`, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const file = await ruruStatic().getStaticFile({
        staticPath: GRAPHIQL_ASSETS,
        urlPath: req.originalUrl,
        acceptEncoding: req.headers["accept-encoding"],
        disallowDevAssets: true,
      });
      if (!file) return next();
      res.writeHead(200, { ...file.headers, "cache-control": "public, max-age=86400" });
      res.end(file.content);
    } catch (error) {
      next(error);
    }
  });
  router.get("/docs", (_req, res) => sendHtml(res, DOCS_PAGE));
  let redoc: Buffer | undefined;
  router.get(REDOC_BUNDLE, (_req, res) => {
    redoc ??= redocBundle();
    res.writeHead(200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Content-Length": redoc.length,
      "Cache-Control": "public, max-age=86400",
    });
    res.end(redoc);
  });
  return router;
}

/**
 * A browser opening the page: asks for HTML before JSON, and sends no `query` (GET /graphql?query=... is
 * a GraphQL request whatever its Accept says).
 */
function wantsPage(req: Request): boolean {
  if (req.query.query !== undefined) return false;
  return req.accepts(["application/json", "application/graphql-response+json", "text/html"]) === "text/html";
}

function sendHtml(res: Response, html: string): void {
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.end(html);
}

/**
 * Redoc's standalone bundle, with the one address it would load from the internet (the Redocly logo in the
 * sidebar footer, fetched from a CDN) replaced by an inline blank image: the page makes no request off this host.
 */
function redocBundle(): Buffer {
  const file = path.join(path.dirname(require.resolve("redoc/package.json")), "bundles", "redoc.standalone.js");
  const code = fs.readFileSync(file, "utf8");
  const logo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg/g;
  const blank = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";
  return Buffer.from(code.replace(logo, blank));
}

/** The GraphiQL page: Ruru's page with the assets served here, a key bar above it, and a fetcher sending the key. */
function graphiqlPage(): string {
  return ruruServer().ruruHTML({
    staticPath: GRAPHIQL_ASSETS,
    endpoint: "/graphql",
    clientConfig: { debugTools: [], defaultQuery: FIRST_QUERY, initialQuery: FIRST_QUERY, isHeadersEditorEnabled: true },
    htmlParts: {
      titleTag: "<title>edmarket GraphiQL</title>",
      styleTags: (original) => `${original}\n<style>${KEY_BAR_CSS}</style>`,
      bodyContent: (original) => `${KEY_BAR_HTML}\n${original}`,
      bodyInitScript: (_original, config) => `<script type="module">
import { React, createRoot, Ruru } from ${JSON.stringify(`${config.staticPath}ruru.js`)};
${KEY_BAR_SCRIPT}
createRoot(document.getElementById("ruru-root")).render(React.createElement(Ruru, { ...RURU_CONFIG, fetcher }));
</script>`,
    },
  });
}

const KEY_BAR_CSS = `
#edm-key-bar { height: 44px; box-sizing: border-box; display: flex; gap: 8px; align-items: center; padding: 6px 12px;
  font: 14px system-ui, sans-serif; background: #0b3d5c; color: #fff; }
#edm-key-bar input { flex: 0 1 420px; padding: 4px 8px; font: 13px ui-monospace, monospace; }
#edm-key-bar button { padding: 4px 10px; }
#edm-key-bar a { color: #cfe8ff; margin-left: auto; }
#ruru-root { height: calc(100vh - 44px) !important; }`;

const KEY_BAR_HTML = `<form id="edm-key-bar" autocomplete="off">
  <strong>edmarket GraphiQL</strong>
  <label for="edm-api-key">API key</label>
  <input id="edm-api-key" type="password" placeholder="sk_live_..." spellcheck="false" />
  <button id="edm-key-save" type="submit">Use key</button>
  <button id="edm-key-forget" type="button">Forget</button>
  <span id="edm-key-status" role="status"></span>
  <a href="/docs">REST reference</a>
</form>`;

/** Keeps the key in localStorage; the fetcher adds it to each request (a header typed in GraphiQL's editor wins). */
const KEY_BAR_SCRIPT = `
const STORAGE = ${JSON.stringify(API_KEY_STORAGE)};
const input = document.getElementById("edm-api-key");
const status = document.getElementById("edm-key-status");
const savedKey = () => localStorage.getItem(STORAGE) || "";
const showStatus = () => { status.textContent = savedKey() ? "key saved in this browser" : "no key yet: paste one to run queries"; };
input.value = savedKey();
showStatus();
document.getElementById("edm-key-bar").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = input.value.trim().replace(/^Bearer\\s+/i, "");
  if (key) localStorage.setItem(STORAGE, key); else localStorage.removeItem(STORAGE);
  location.reload(); // GraphiQL reloads the schema with the key
});
document.getElementById("edm-key-forget").addEventListener("click", () => {
  localStorage.removeItem(STORAGE);
  location.reload();
});
async function fetcher(params, options) {
  const key = savedKey();
  const headers = { "Content-Type": "application/json", Accept: "application/json", ...(options && options.headers) };
  const named = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
  if (!key && !named) return { errors: [{ message: "Paste your API key in the bar above (sk_live_...) and press Use key." }] };
  if (key && !named) headers.Authorization = "Bearer " + key;
  const response = await fetch(RURU_CONFIG.endpoint, { method: "POST", headers, body: JSON.stringify(params) });
  return response.json();
}`;

const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>edmarket REST API reference</title>
<style>body { margin: 0; } #edm-docs-bar { padding: 6px 12px; font: 14px system-ui, sans-serif; background: #0b3d5c; color: #fff; }
#edm-docs-bar a { color: #cfe8ff; }</style>
</head>
<body>
<div id="edm-docs-bar">edmarket REST API: every request needs <code>Authorization: Bearer sk_live_...</code>.
  <a href="/api/v1/openapi.json">openapi.json</a> · <a href="/graphql">GraphiQL</a></div>
<div id="redoc"></div>
<script src="${REDOC_BUNDLE}"></script>
<script>
Redoc.init("/api/v1/openapi.json", { expandResponses: "200,201,202", jsonSampleExpandLevel: 2, hideHostname: true }, document.getElementById("redoc"));
</script>
</body>
</html>
`;
