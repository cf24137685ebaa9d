import { byKeys, groupByKeys } from "../../src/db/batch";

interface Row {
  id: string;
  owner: string;
  n: number;
}

describe("DataLoader batch ordering (src/db/batch.ts)", () => {
  const rows: Row[] = [
    { id: "c", owner: "x", n: 1 },
    { id: "a", owner: "y", n: 2 },
    { id: "b", owner: "x", n: 3 },
  ];

  it("byKeys answers one row per key, in key order, null for a key with no row", () => {
    expect(byKeys(["a", "b", "c", "zz"], rows, (r) => r.id)).toEqual([rows[1], rows[2], rows[0], null]);
    expect(byKeys(["b", "a"], rows, (r) => r.id)).toEqual([rows[2], rows[1]]);
  });

  it("byKeys answers a repeated key with the same row each time, and ignores rows nobody asked for", () => {
    expect(byKeys(["a", "a"], rows, (r) => r.id)).toEqual([rows[1], rows[1]]);
    expect(byKeys(["c"], rows, (r) => r.id)).toEqual([rows[0]]);
    expect(byKeys([], rows, (r) => r.id)).toEqual([]);
  });

  it("byKeys keeps the last row of a duplicated key (the database returned it twice)", () => {
    const twice = [...rows, { id: "a", owner: "z", n: 9 }];
    expect(byKeys(["a"], twice, (r) => r.id)).toEqual([{ id: "a", owner: "z", n: 9 }]);
  });

  it("byKeys compares keys by value for primitives (numbers stay numbers)", () => {
    const numbered = [{ k: 2 }, { k: 1 }];
    expect(byKeys([1, 2, 3], numbered, (r) => r.k)).toEqual([{ k: 1 }, { k: 2 }, null]);
    expect(byKeys(["1"], numbered, (r) => r.k as unknown as string)).toEqual([null]);
  });

  it("groupByKeys answers a list per key, in key order, rows in the order they came, [] for none", () => {
    expect(groupByKeys(["x", "y", "none"], rows, (r) => r.owner)).toEqual([[rows[0], rows[2]], [rows[1]], []]);
    expect(groupByKeys(["y", "x"], rows, (r) => r.owner).map((group) => group.map((r) => r.n))).toEqual([[2], [1, 3]]);
    expect(groupByKeys([], rows, (r) => r.owner)).toEqual([]);
  });

  it("groupByKeys drops rows of keys nobody asked for", () => {
    expect(groupByKeys(["y"], rows, (r) => r.owner)).toEqual([[rows[1]]]);
  });
});
