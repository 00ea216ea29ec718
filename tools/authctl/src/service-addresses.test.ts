import { createServer } from "node:net";
import { AuthError } from "@auth/errors";
import { createServiceClient } from "@auth/grpc-kit/client";
import { IdentityServiceService } from "@auth/proto/identity";
import { freePort } from "@auth/runtime";
import { describe, expect, it } from "vitest";
import { notAnswered } from "./service-addresses.js";

/** How a call to this address fails: grpc-kit's error, as authctl gets it. */
async function failureAt(address: string, deadlineMs: number): Promise<unknown> {
  const client = createServiceClient(IdentityServiceService, address, {
    deadlineMs,
    transport: { kind: "plaintext" },
    server: "identity",
  });
  try {
    return await client.listCompanies({ pageSize: 1, pageToken: "" }).catch((error: unknown) => error);
  } finally {
    client.close();
  }
}

const lineFor = (error: unknown, source: string, address: string, deadlineMs = 10_000) =>
  (notAnswered(error, "identity", address, source, deadlineMs) as Error).message;

describe("authctl's line for a service that gave no answer", () => {
  it("names the service, its address and what set the address", async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const refused = await failureAt(address, 10_000);
    expect(lineFor(refused, "env", address)).toBe(
      `cannot reach identity at ${address} (the address of AUTH_IDENTITY_ADDR)`,
    );
    expect(lineFor(refused, "cli", address)).toBe(
      `cannot reach identity at ${address} (the address of --identity)`,
    );
    expect(lineFor(refused, "default", address)).toBe(
      `cannot reach identity at ${address} (the default address; set AUTH_IDENTITY_ADDR or --identity)`,
    );
  });

  it("names the deadline when the service took the connection but did not answer in time", async () => {
    const silentPeer = createServer(() => {});
    await new Promise<void>((resolve) => silentPeer.listen(0, "127.0.0.1", resolve));
    const address = `127.0.0.1:${(silentPeer.address() as { port: number }).port}`;
    try {
      expect(lineFor(await failureAt(address, 300), "env", address, 300)).toBe(
        `no answer from identity at ${address} within 300 ms (the address of AUTH_IDENTITY_ADDR; --deadline sets the wait)`,
      );
    } finally {
      silentPeer.close();
    }
  });

  it("leaves the service's own answers as they are, its service.unavailable included", () => {
    const answered = new AuthError("service.unavailable", {
      detail: "the service's store is not reached yet",
    });
    expect(notAnswered(answered, "identity", "10.0.0.1:50051", "env", 10_000)).toBe(answered);
  });
});
