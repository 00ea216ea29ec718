import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openLoopLoad } from "./open-loop.js";

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server that answers every request after `delayMs` with its path, and counts what it holds. */
async function slowServer(delayMs: number) {
  const seen = { requests: 0, inFlight: 0, mostInFlight: 0, bodies: [] as string[] };
  const server = createServer(async (req: IncomingMessage, res) => {
    seen.requests++;
    seen.inFlight++;
    seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.bodies.push(body);
    setTimeout(() => {
      seen.inFlight--;
      res.end(JSON.stringify({ path: req.url }));
    }, delayMs);
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/first`, seen };
}

describe("the open loop of the half-load benchmark", () => {
  it("starts flows whether or not earlier ones were answered, as users arrive", async () => {
    const { url, seen } = await slowServer(400);
    const result = await openLoopLoad({
      url,
      arrivalRate: 100,
      durationSeconds: 0.5,
      requests: [{ method: "POST", body: "{}" }],
    });
    // About 50 arrivals in 0.5 s, each held 0.4 s: a closed loop of one connection would hold one.
    expect(seen.mostInFlight).toBeGreaterThan(10);
    expect(result.requests).toBe(seen.requests);
    expect(result.errors + result.failures).toBe(0);
    // Every answer waited at least the server's delay.
    expect(result.p50).toBeGreaterThanOrEqual(395);
  });

  it("runs a flow's requests in order, each set up from the answers before it", async () => {
    const { url, seen } = await slowServer(0);
    const result = await openLoopLoad({
      url,
      arrivalRate: 50,
      durationSeconds: 0.4,
      requests: [
        {
          method: "POST",
          setupRequest: (request, context) => {
            (context as { step?: number }).step = 1;
            return { ...request, body: "first" };
          },
          onResponse: (_status, body, context) => {
            (context as { answer?: string }).answer = (JSON.parse(body) as { path: string }).path;
          },
        },
        {
          method: "POST",
          path: "/second",
          setupRequest: (request, context) => ({
            ...request,
            body: `after ${(context as { answer: string }).answer}`,
          }),
        },
      ],
    });
    expect(result.sent).toBe(seen.requests);
    expect(result.sent % 2).toBe(0);
    expect(seen.bodies.filter((body) => body === "after /first")).toHaveLength(result.sent / 2);
  });
});
