import type { AuthError } from "@auth/errors";
import { describe, expect, it } from "vitest";
import { LoginIdTurns } from "./login-id-turns.js";

const far = () => Date.now() + 60_000;
/** Lets every turn handed on so far start. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the turns of a login ID's requests", () => {
  it("lets two requests of a login ID work at once; the others wait and start in order of arrival", async () => {
    const turns = new LoginIdTurns(2);
    const started: number[] = [];
    const giveBacks: Array<() => void> = [];
    const requests = Array.from({ length: 5 }, (_, index) =>
      turns.take("c1:alice", far()).then((giveBack) => {
        started.push(index);
        giveBacks[index] = giveBack;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    giveBacks[1]?.();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    giveBacks[0]?.();
    giveBacks[2]?.();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(requests);
  });

  it("does not hold another login ID's requests behind them", async () => {
    const turns = new LoginIdTurns(2);
    await turns.take("c1:alice", far());
    await turns.take("c1:alice", far());
    const waiting = turns.take("c1:alice", far());
    const other = await Promise.race([turns.take("c1:bob", far()).then(() => "bob works"), settle()]);
    expect(other).toBe("bob works");
    expect(await Promise.race([waiting.then(() => "alice's third works"), settle()])).toBeUndefined();
  });

  it("refuses a request that waits past its time with request.ratelimit.exceeded, and hands the turn to the next", async () => {
    const turns = new LoginIdTurns(1);
    const giveBack = await turns.take("c1:alice", far());
    const late = turns.take("c1:alice", Date.now() + 20).catch((error: AuthError) => error);
    const next = turns.take("c1:alice", far());
    const refusal = await late;
    expect(refusal).toMatchObject({ code: "request.ratelimit.exceeded", retryAfterSeconds: 1 });
    giveBack();
    await expect(next).resolves.toBeTypeOf("function");
  });

  it("forgets a login ID once none of its requests works or waits, and a turn given back twice counts once", async () => {
    const turns = new LoginIdTurns(1);
    const first = await turns.take("c1:alice", far());
    const second = turns.take("c1:alice", far());
    first();
    first();
    const giveBack = await second;
    // Still one at a time: the second has the one turn.
    const third = turns.take("c1:alice", far());
    expect(await Promise.race([third.then(() => "a third at once"), settle()])).toBeUndefined();
    giveBack();
    (await third)();
    expect(turns.size).toBe(0);
  });
});
