/**
 * src/db/turns.ts: one turn at a time, in the order they were asked for, each started from the event loop, so
 * that the event loop's other work (accepting connections, reading requests) runs between two turns.
 */
import { Turns } from "../../src/db/turns";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Turns", () => {
  it("runs one turn at a time, in the order they were asked for", async () => {
    const turns = new Turns();
    const events: string[] = [];
    let running = 0;
    const work = (name: string, steps: number) =>
      turns.run(async () => {
        running += 1;
        expect(running).toBe(1);
        events.push(`${name} start`);
        for (let i = 0; i < steps; i++) await Promise.resolve();
        events.push(`${name} end`);
        running -= 1;
        return name;
      });
    const results = await Promise.all([work("a", 3), work("b", 1), work("c", 5), work("d", 0)]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(events).toEqual(["a start", "a end", "b start", "b end", "c start", "c end", "d start", "d end"]);
  });

  it("lets the event loop run between two turns, and queues a caller that arrives meanwhile behind those waiting", async () => {
    const turns = new Turns();
    const events: string[] = [];
    let late: Promise<void> | undefined;
    const first = turns.run(async () => {
      events.push("first");
      // An event-loop callback queued while the first turn runs: it runs before the second turn starts, and the turn
      // it asks for goes behind the second.
      late = new Promise<void>((resolve) =>
        setImmediate(() => {
          events.push("event loop");
          void turns.run(async () => void events.push("late")).then(resolve);
        }),
      );
    });
    const second = turns.run(async () => void events.push("second"));
    await Promise.all([first, second]);
    await late;
    expect(events).toEqual(["first", "event loop", "second", "late"]);
  });

  it("hands the next turn over when one fails, and the failure reaches only its caller", async () => {
    const turns = new Turns();
    const failing = turns.run(async () => {
      throw new Error("statement failed");
    });
    const next = turns.run(async () => "next ran");
    await expect(failing).rejects.toThrow("statement failed");
    await expect(next).resolves.toBe("next ran");
    expect(turns.waiting).toBe(0);
  });

  it("starts a lone caller's turn from the event loop too, and is idle after it", async () => {
    const turns = new Turns();
    let ran = false;
    const done = turns.run(async () => {
      ran = true;
    });
    // The turn has not started synchronously, nor within the microtasks that follow.
    await Promise.resolve();
    expect(ran).toBe(false);
    await done;
    expect(ran).toBe(true);
    await tick();
    await expect(turns.run(async () => 1)).resolves.toBe(1);
  });
});
