import type { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecoveryStore } from "./recovery-store.js";

/** Whose links these are: their events are security-events.test.ts's business. */
const bySystem = systemOrigin;
const minute = 60_000;
const ticket = { companyId: "c1", userId: "u1", loginId: "ann@example.com" };
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "redeemed",
    (error: AuthError) => error.code,
  );

describe.each(keyValueKinds())("recovery store on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let store: RecoveryStore;
  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    store = new RecoveryStore(kv, { now: () => now });
  });
  afterEach(async () => {
    await kv.close();
  });

  describe("link tickets", () => {
    it("are 256-bit tokens whose hash alone is stored", async () => {
      const token = await store.issueLink(ticket, 30 * minute, bySystem);
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    });

    it("redeem once to the user and login ID they were issued for", async () => {
      const token = await store.issueLink(ticket, 30 * minute, bySystem);
      expect(await store.redeemLink("c1", token, () => bySystem)).toEqual({
        userId: "u1",
        loginId: "ann@example.com",
      });
      expect(await codeOf(store.redeemLink("c1", token, () => bySystem))).toBe("auth.token.invalid");
    });

    it("are auth.token.expired after their lifetime", async () => {
      const token = await store.issueLink(ticket, 30 * minute, bySystem);
      now += 30 * minute;
      expect(await codeOf(store.redeemLink("c1", token, () => bySystem))).toBe("auth.token.expired");
    });

    it("are auth.token.invalid when unknown, forged or of another company", async () => {
      const token = await store.issueLink(ticket, 30 * minute, bySystem);
      expect(await codeOf(store.redeemLink("c2", token, () => bySystem))).toBe("auth.token.invalid");
      expect(
        await codeOf(store.redeemLink("c1", `${token.slice(0, 22)}${"A".repeat(42)}`, () => bySystem)),
      ).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", "nonsense", () => bySystem))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", token, () => bySystem))).toBe("redeemed");
    });

    it("redeem once however many requests race", async () => {
      const token = await store.issueLink(ticket, 30 * minute, bySystem);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => codeOf(store.redeemLink("c1", token, () => bySystem))),
      );
      expect(results.filter((r) => r === "redeemed")).toHaveLength(1);
    });

    it("end for one user when revoked (the password changed), and not for others", async () => {
      const first = await store.issueLink(ticket, 30 * minute, bySystem);
      const second = await store.issueLink(ticket, 30 * minute, bySystem);
      const used = await store.issueLink(ticket, 30 * minute, bySystem);
      const others = await store.issueLink({ ...ticket, userId: "u2" }, 30 * minute, bySystem);
      await store.redeemLink("c1", used, () => bySystem);
      expect(await store.revokeUserLinks("c1", "u1")).toBe(2);
      expect(await codeOf(store.redeemLink("c1", first, () => bySystem))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", second, () => bySystem))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", others, () => bySystem))).toBe("redeemed");
      expect(await store.revokeUserLinks("c1", "u1")).toBe(0);
    });
  });
});
