import { XMLParser } from "fast-xml-parser";
import { ReplyError } from "./read-reply";

// Values stay text (an id like 007 or a key like 1e5 must not turn into a number); attributes are kept under @_name.
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, parseAttributeValue: false, trimValues: true, processEntities: true });

/**
 * Parses an XML reply into a plain object, the root element as its one key:
 * `<ListBucketResult><Name>b</Name></ListBucketResult>` → `{ ListBucketResult: { Name: "b" } }`.
 * A repeated element becomes a list. DOCTYPE entities are not expanded.
 */
export function parseXmlReply(text: string): unknown {
  if (/<!DOCTYPE[^>]*\[/i.test(text)) throw new ReplyError("the XML reply declares its own entities, which are refused");
  try {
    const parsed = parser.parse(text, true) as Record<string, unknown>;
    delete parsed["?xml"];
    return parsed;
  } catch (error) {
    throw new ReplyError(`the reply is not valid XML (${(error as Error).message.split("\n")[0]})`);
  }
}
