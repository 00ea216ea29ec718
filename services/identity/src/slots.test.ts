import { describe, expect, it } from "vitest";
import { Slots } from "./slots.js";

describe("slots", () => {
  it("run at most the limit of tasks at a time, and every task", async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const task = (value: number) =>
      slots.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return value;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(task))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it("free the slot of a task that fails", async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await slots.run(async () => "next")).toBe("next");
  });
});
