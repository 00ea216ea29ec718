import { createLogger, reportListening, stopOnSignals } from "@auth/runtime";
import express from "express";
import { callSkeleton, skeletonClients } from "./calling.js";
import { gatewayCalls } from "./calls.js";

// The skeleton's gateway: express with a JSON body, the product's gRPC calls of each request in
// turn (calls.ts), a fixed JSON answer (docs/performance.md, "Against a skeleton and better-auth").
const logger = createLogger("skeleton-gateway", "warn");
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
const clients = skeletonClients({
  identity: process.env.IDENTITY_ADDR ?? "",
  session: process.env.SESSION_ADDR ?? "",
  disclaimer: process.env.DISCLAIMER_ADDR ?? "",
});
const sessionToken = "s".repeat(43);
const answers: Record<keyof typeof gatewayCalls, object> = {
  login: {
    status: "success",
    session_token: sessionToken,
    session_state: "checkpassword",
    disclaimers_required: [],
    captcha_required: false,
  },
  checkpassword: { status: "success", session_token: sessionToken, session_state: "authorized" },
  checkcredentials: { status: "success", session_token: sessionToken, session_state: "authorized" },
};

const app = express();
app.disable("x-powered-by");
for (const step of Object.keys(gatewayCalls) as Array<keyof typeof gatewayCalls>) {
  app.post(`/:company/v2/auth/${step}`, express.json(), async (request, response) => {
    const body = request.body as { login_id?: string; password?: string };
    const input = {
      loginId: body.login_id ?? "",
      password: body.password ?? "",
      sessionToken: request.headers.authorization?.replace(/^Bearer /, "") ?? "",
    };
    try {
      for (const method of gatewayCalls[step]) await callSkeleton(clients, method, input);
      response.json(answers[step]);
    } catch (error) {
      logger.error({ err: error }, "a call failed");
      response.status(500).json({ status: "error" });
    }
  });
}
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () =>
  reportListening({ port: (server.address() as { port: number }).port }),
);
shutdown.stopWith(async () => {
  await new Promise((resolve) => server.close(resolve));
});
