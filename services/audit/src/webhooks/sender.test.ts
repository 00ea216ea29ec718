import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type Answer,
  makeReceiverTls,
  type Receiver,
  type ReceiverTls,
  startReceiver,
} from "./receiver.testing.js";
import { type Attempt, httpsSender, httpsSenderOf, type Sender } from "./sender.js";
import { newSigningSecret } from "./signing-secrets.js";

const loopback = ["127.0.0.1/32"];
const payload = JSON.stringify({ specversion: "1.0", id: "e", type: "auth.password.changed", data: {} });

describe("sending one attempt", () => {
  let tls: ReceiverTls;
  let dir: string;
  let sender: Sender;
  const receivers: Receiver[] = [];

  const receiver = async (answer?: (index: number) => Answer) => {
    const started = await startReceiver(tls, answer);
    receivers.push(started);
    return started;
  };
  const attempt = (url: string, secrets = [newSigningSecret()]): Attempt => ({
    url,
    eventId: randomUUID(),
    payload,
    secrets,
    timestamp: new Date(),
  });

  beforeAll(async () => {
    tls = await makeReceiverTls();
    dir = mkdtempSync(join(tmpdir(), "webhook-sender-"));
    writeFileSync(join(dir, "ca.pem"), tls.ca);
    sender = httpsSenderOf({
      WEBHOOK_TIMEOUT_MS: 600_000,
      WEBHOOK_ALLOWED_CIDRS: loopback,
      WEBHOOK_CA_FILE: join(dir, "ca.pem"),
    });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe("signing (Standard Webhooks)", () => {
    it("sends the event as JSON with its id, the attempt's time and a signature the receiver verifies", async () => {
      const target = await receiver();
      const sent = attempt(target.url);
      expect(await sender.send(sent)).toEqual({ status: 204, error: "" });
      const [got] = await target.receivedCount(1);
      expect(got?.body).toBe(payload);
      expect(got?.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": expect.stringMatching(/^auth-suite-webhooks\//),
        "webhook-id": sent.eventId,
        "webhook-timestamp": String(Math.floor(sent.timestamp.getTime() / 1000)),
      });
      expect(new Webhook(sent.secrets[0] as string).verify(got?.body ?? "", got?.headers ?? {})).toEqual(
        JSON.parse(payload),
      );
      expect(() => new Webhook(newSigningSecret()).verify(got?.body ?? "", got?.headers ?? {})).toThrow(
        /No matching signature/,
      );
    });

    it("signs once per secret, space separated, so that either secret verifies", async () => {
      const target = await receiver();
      const secrets = [newSigningSecret(), newSigningSecret()];
      await sender.send(attempt(target.url, secrets));
      const [got] = await target.receivedCount(1);
      expect(got?.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
      for (const secret of secrets) {
        expect(() => new Webhook(secret).verify(got?.body ?? "", got?.headers ?? {})).not.toThrow();
      }
    });
  });

  describe("outcomes", () => {
    it("names a status other than 2xx", async () => {
      const target = await receiver((index) => ({ status: index === 0 ? 500 : 503 }));
      expect(await sender.send(attempt(target.url))).toEqual({ status: 500, error: "status 500" });
      expect(await sender.send(attempt(target.url))).toEqual({ status: 503, error: "status 503" });
    });

    it("does not follow a redirect: the receiver it points to is never asked", async () => {
      const elsewhere = await receiver();
      const target = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
      expect(await sender.send(attempt(target.url))).toEqual({ status: 302, error: "redirect not followed" });
      expect(target.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
    });

    it("gives up on a receiver that never answers, after the timeout", async () => {
      const target = await receiver(() => "hang");
      const impatient = httpsSender({ timeoutMs: 1_000, allowedCidrs: loopback, extraCa: tls.ca });
      expect(await impatient.send(attempt(target.url))).toEqual({ status: 0, error: "timeout" });
      expect(target.received).toHaveLength(1);
    });

    it("reads no more than 64 KiB of an answer's body: it hangs up on an endless one", async () => {
      let hungUp: () => void = () => {};
      const closed = new Promise<void>((resolve) => {
        hungUp = resolve;
      });
      const server = createHttpsServer(
        { key: tls.privateKey, cert: tls.certificate },
        (_request, response) => {
          response.writeHead(200);
          const chunk = Buffer.alloc(16 * 1024, "x");
          const write = () => {
            while (response.write(chunk)) {}
          };
          response.on("drain", write);
          response.on("close", hungUp);
          write();
        },
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as { port: number }).port;
      try {
        expect(await sender.send(attempt(`https://127.0.0.1:${port}/`))).toEqual({ status: 200, error: "" });
        await closed;
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it("names a refused connection", async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      expect(await sender.send(attempt(`https://127.0.0.1:${port}/`))).toEqual({
        status: 0,
        error: "connection refused",
      });
    });

    it("fails on a certificate of a CA it does not trust, as tls", async () => {
      const target = await receiver();
      const trustingNodesCas = httpsSender({ timeoutMs: 600_000, allowedCidrs: loopback });
      const result = await trustingNodesCas.send(attempt(target.url));
      expect(result.status).toBe(0);
      expect(result.error).toMatch(/^tls: /);
      expect(target.received).toHaveLength(0);
    });
  });

  describe("addresses that are not public (SSRF)", () => {
    it("refuses loopback at the connection when it is not allowed, by address or by a name that resolves to it", async () => {
      const target = await receiver();
      const strict = httpsSender({ timeoutMs: 600_000, allowedCidrs: [], extraCa: tls.ca });
      expect(await strict.send(attempt(target.url))).toEqual({ status: 0, error: "refused address" });
      expect(await strict.send(attempt(`https://localhost:${target.port}/hook`))).toEqual({
        status: 0,
        error: "refused address",
      });
      expect(target.received).toHaveLength(0);
      expect((await sender.send(attempt(target.url))).status).toBe(204);
    });
  });
});
