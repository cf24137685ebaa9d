import { parse } from "graphql";
import { BadRequestError } from "../../../graphql/errors";
import { oneOf, type McpToolSpec } from "../../../graphql/mcp-tool";
import { REASON_NOTE_MAX } from "./bid-filing.inputs";
import { BidFilingAction, BidFilingReasonCode } from "./bid-filing.type";

const FILE_BID = parse(`
  mutation McpFileBid($bidId: UUID!, $input: BidFilingInput!) {
    fileBid(bidId: $bidId, input: $input) { bidId action reasonCode reasonNote filedAt }
  }`);

const ACTIONS = Object.values(BidFilingAction);
const REASONS = Object.values(BidFilingReasonCode);

/** The MCP face of PUT /bids/{id}/filing (docs/outreach.md). */
export const bidFilingTools: McpToolSpec[] = [
  {
    name: "file_bid",
    title: "File a bid (save, set aside, not useful)",
    description:
      "Files a bid of an unlocked district or school for the caller's organization, as PUT /api/v1/bids/{id}/filing: { data: { bid_id, " +
      "action, reason_code, reason_note, filed_at } }. Filing again replaces the filing; the same filing again changes nothing. " +
      "reason_code and reason_note only with not_useful. The filing shows as bids[].filing of the district or school, to this " +
      "organization only. Errors: bad_request, not_found (unknown bid, or its district or school is not unlocked).",
    inputSchema: {
      type: "object",
      properties: {
        bid_id: { type: "string", format: "uuid", description: "Our id of the bid (bids[].id of an unlocked district or school)." },
        action: { type: "string", enum: ACTIONS, description: "save, set_aside or not_useful." },
        reason_code: { type: "string", enum: REASONS, description: "With not_useful only: why." },
        reason_note: { type: "string", maxLength: REASON_NOTE_MAX, description: "With not_useful only: a note." },
      },
      required: ["bid_id", "action"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: ["bid_id", "action", "reason_code", "reason_note"],
    required: ["bid_id", "action"],
    plan(args) {
      const action = oneOf("file_bid", "action", args.action, ACTIONS);
      const reasonCode = args.reason_code === undefined ? undefined : oneOf("file_bid", "reason_code", args.reason_code, REASONS);
      if (args.reason_note !== undefined && typeof args.reason_note !== "string")
        throw new BadRequestError("file_bid: reason_note must be a string");
      return {
        document: FILE_BID,
        variables: { bidId: args.bid_id, input: { action, reasonCode, reasonNote: args.reason_note } },
        shape: (data) => ({ data: data.file_bid }),
      };
    },
  },
];
