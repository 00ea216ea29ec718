import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import express, { type Router } from "express";
import helmet from "helmet";

const swaggerUi = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/swagger-ui-bundle.js"));

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authentication API reference</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/reference.js"></script>
</body>
</html>
`;

// A file rather than an inline script, so that the page's CSP allows no inline script.
const script = `SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
});
`;

/**
 * The page's own policy instead of the gateway's (which upgrades requests to HTTPS and allows no
 * Swagger UI): scripts and styles of this origin only, requests ("Try it out") to this origin only.
 */
const pagePolicy = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    // Swagger UI sets style attributes on the elements it renders.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
});

/** `GET /openapi.json`, the document, and `GET /docs`, an interactive reference page over it (Swagger UI). */
export function apiReference(document: object): Router {
  const router = express.Router();
  const json = JSON.stringify(document);
  router.get("/openapi.json", (_request, response) => {
    response.type("json").send(json);
  });
  router.get("/docs", pagePolicy, (_request, response) => {
    response.type("html").send(page);
  });
  router.get("/docs/reference.js", (_request, response) => {
    response.type("js").send(script);
  });
  // Swagger UI's own files (the bundle is over 1 MB) are the same for everyone: browsers may keep
  // them for a day, unlike the gateway's answers, which are no-store.
  for (const file of ["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png"]) {
    router.get(`/docs/${file}`, (_request, response) => {
      response.setHeader("Cache-Control", "public, max-age=86400");
      response.sendFile(join(swaggerUi, file));
    });
  }
  return router;
}
