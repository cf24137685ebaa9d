/**
 * The REST executor's cheaper DateTimeISO and UUID serializers write exactly what the scalars write, and
 * reject what they reject.
 */
import { serializeTimestamp, serializeUuid } from "../../src/graphql/fields";
import { DateTimeScalar, UUIDScalar } from "../../src/graphql/scalars";

const outcome = (serialize: (value: unknown) => unknown, value: unknown) => {
  try {
    return { value: serialize(value) };
  } catch {
    return { error: true };
  }
};

describe("REST scalar serializers", () => {
  it("timestamps: the same strings as DateTimeISO for Dates, canonical text and other text", () => {
    const values: unknown[] = [
      new Date("2026-11-23T04:29:22.756Z"),
      new Date("2024-02-29T23:59:59.999Z"),
      new Date("2000-01-01T00:00:00.000Z"),
      new Date(Date.UTC(999, 11, 31, 23, 0, 0, 5)),
      new Date(Date.UTC(1000, 0, 1)),
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
      new Date("invalid"),
      "2026-11-23T04:29:22.756Z",
      "2026-11-23T04:29:22Z",
      "2026-11-23T05:29:22.756+01:00",
      "2026-11-23",
      "not a timestamp",
      1_700_000_000_000,
    ];
    for (const value of values)
      expect([value, outcome(serializeTimestamp, value)]).toEqual([value, outcome((v) => DateTimeScalar.serialize(v), value)]);
  });

  it("uuids: the same strings as UUID for canonical ids, and the scalar's answer otherwise", () => {
    const values: unknown[] = [
      "16b49b6f-f15f-4b51-9172-d7d92b97b4d9",
      "16B49B6F-F15F-4B51-9172-D7D92B97B4D9",
      "{16b49b6f-f15f-4b51-9172-d7d92b97b4d9}",
      "16b49b6f-f15f-4b51-9172-d7d92b97b4d",
      "16b49b6f-f15f-4b51-9172-d7d92b97b4dx",
      42,
    ];
    for (const value of values)
      expect([value, outcome(serializeUuid, value)]).toEqual([value, outcome((v) => UUIDScalar.serialize(v), value)]);
  });
});
