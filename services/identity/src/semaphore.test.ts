import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

describe("Semaphore", () => {
  it("runs at most the limit of tasks at a time, and every task", async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let most = 0;
    const task = (value: number) =>
      semaphore.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return value;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(task))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it("frees the place of a task that fails", async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await semaphore.run(async () => "next")).toBe("next");
  });
});
