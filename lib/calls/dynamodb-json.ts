/**
 * DynamoDB's JSON dialect (`encoding: dynamodbJson`): a manifest writes plain
 * values and the wire carries type tags ({"S": "x"}, {"N": "1"}, {"M": {…}}).
 * Only the fields of a request that hold attribute values are tagged, and
 * only the fields of a reply that hold items are untagged, the same fields
 * AWS's DocumentClient translates.
 *
 * @example marshallRequest({ TableName: "Users", Key: { id: "u1" } }) // { TableName: "Users", Key: { id: { S: "u1" } } }
 */

/** Request fields whose value is a map of attribute name to value. */
const itemFields = new Set(["Item", "Key", "ExpressionAttributeValues", "ExclusiveStartKey"]);

/** Reply fields that hold an item, or a list of items. */
const replyItemFields = new Set(["Item", "Attributes", "LastEvaluatedKey"]);
const replyListFields = new Set(["Items"]);

export type AttributeValue =
  | { S: string }
  | { N: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> }
  | { B: string };

/** Tags one plain value. A number becomes N (as text, as DynamoDB wants); undefined values in maps are left out. */
export function marshallValue(value: unknown, at = "value"): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === "string") return { S: value };
  if (typeof value === "boolean") return { BOOL: value };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${at}: DynamoDB cannot store ${value}`);
    return { N: String(value) };
  }
  if (typeof value === "bigint") return { N: value.toString() };
  if (Array.isArray(value)) return { L: value.map((item, index) => marshallValue(item, `${at}[${index}]`)) };
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    // A binary value as calls pass it around ({ base64, contentType }) is stored as bytes.
    if (typeof record.base64 === "string" && Object.keys(record).every((key) => ["base64", "contentType", "bytes", "filename"].includes(key))) return { B: record.base64 };
    return { M: marshallMap(record, at) };
  }
  throw new Error(`${at}: a ${typeof value} cannot be stored in DynamoDB`);
}

function marshallMap(record: Record<string, unknown>, at: string): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(record).filter(([, item]) => item !== undefined).map(([name, item]) => [name, marshallValue(item, `${at}.${name}`)]));
}

/** Reads one tagged value back. Numbers that do not fit a double without loss stay text. */
export function unmarshallValue(tagged: unknown): unknown {
  if (tagged === null || typeof tagged !== "object" || Array.isArray(tagged)) return tagged;
  const [tag, value] = Object.entries(tagged as Record<string, unknown>)[0] ?? [];
  switch (tag) {
    case "S":
    case "B":
      return value;
    case "N":
      return readNumber(String(value));
    case "BOOL":
      return Boolean(value);
    case "NULL":
      return null;
    case "L":
      return Array.isArray(value) ? value.map(unmarshallValue) : [];
    case "M":
      return unmarshallItem(value);
    case "SS":
    case "BS":
      return Array.isArray(value) ? [...value] : [];
    case "NS":
      return Array.isArray(value) ? value.map((item) => readNumber(String(item))) : [];
    default:
      return tagged;
  }
}

/** An item (a map of tagged values) as plain values. */
export function unmarshallItem(item: unknown): Record<string, unknown> {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return {};
  return Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([name, value]) => [name, unmarshallValue(value)]));
}

function readNumber(text: string): number | string {
  const number = Number(text);
  return Number.isFinite(number) && (Number.isSafeInteger(number) || !/^-?\d+$/.test(text)) ? number : text;
}

/** Tags the attribute-value fields of a request body; everything else (TableName, expressions) is sent as written. */
export function marshallRequest(body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([name, value]) => {
      if (!itemFields.has(name) || value === undefined || value === null) return [name, value];
      if (typeof value !== "object" || Array.isArray(value)) throw new Error(`body.${name} must be a map of attribute values`);
      return [name, marshallMap(value as Record<string, unknown>, `body.${name}`)];
    }),
  );
}

/** Untags the item fields of a reply (Item, Items, Attributes, LastEvaluatedKey). */
export function unmarshallReply(reply: unknown): unknown {
  if (reply === null || typeof reply !== "object" || Array.isArray(reply)) return reply;
  return Object.fromEntries(
    Object.entries(reply as Record<string, unknown>).map(([name, value]) => {
      if (replyItemFields.has(name)) return [name, unmarshallItem(value)];
      if (replyListFields.has(name) && Array.isArray(value)) return [name, value.map(unmarshallItem)];
      return [name, value];
    }),
  );
}
