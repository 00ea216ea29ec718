import { AuthError } from "@auth/errors";
import { metrics } from "@auth/telemetry";
import express, { type Express } from "express";
import helmet from "helmet";
import { openApiDocument } from "./api/openapi.js";
import { apiReference } from "./api/reference.js";
import { sendError, sendSuccess } from "./http/envelope.js";
import { errorHandler, methodNotAllowed, routeNotFound } from "./http/errors.js";
import { endpointHandlers, type PipelineDependencies } from "./http/pipeline.js";
import type { BackendHealth } from "./readiness.js";
import { endpoints } from "./routes.js";

export interface AppOptions extends PipelineDependencies {
  /** The health of the services the gateway cannot work without, for /readyz (readiness.ts). */
  health: BackendHealth;
  /**
   * The proxies whose X-Forwarded-For gives the client address (TRUST_PROXY): addresses, CIDRs and
   * express's names loopback, linklocal and uniquelocal; none when empty. Never a hop count or
   * `true`, which would believe the header from any peer.
   */
  trustProxy: readonly string[];
}

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", [...options.trustProxy]);
  app.use(helmet());
  app.use((_request, response, next) => {
    const stopTimer = metrics.httpDuration.startTimer();
    response.on("finish", () => {
      const endpoint = response.locals.operation ?? "other";
      stopTimer({ endpoint });
      metrics.httpRequests.inc({
        endpoint,
        status: String(response.statusCode),
        error_code: response.locals.errorCode ?? "",
      });
    });
    next();
  });
  app.use((_request, response, next) => {
    response.setHeader("Cache-Control", "no-store");
    next();
  });

  app.get("/healthz", (_request, response) => sendSuccess(response, {}));
  app.get("/readyz", async (_request, response) => {
    const down = await options.health.notServing(1_000);
    if (down.length === 0) sendSuccess(response, {});
    else
      sendError(
        response,
        new AuthError("service.unavailable", { detail: `not serving: ${down.join(", ")}` }),
      );
  });

  app.use(apiReference(openApiDocument(endpoints)));

  for (const endpoint of endpoints) {
    const path = `/:company/v2/auth/${endpoint.operation}`;
    if (endpoint.method === "GET") app.get(path, ...endpointHandlers(endpoint, options));
    else app.post(path, ...endpointHandlers(endpoint, options));
    app.all(path, methodNotAllowed(endpoint.method));
  }
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}
