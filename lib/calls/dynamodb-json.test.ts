import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { marshallRequest, marshallValue, unmarshallReply } from "./dynamodb-json";
import { runCalls } from "./run-calls";

const setup = useFixtureServers();

describe("DynamoDB JSON (encoding: dynamodbJson)", () => {
  it("tags every kind of value, nested, and leaves undefined out", () => {
    expect(marshallValue({ s: "a", n: 1.5, b: true, z: null, l: [1, "x"], m: { deep: { n: -2 } }, gone: undefined })).toEqual({
      M: { s: { S: "a" }, n: { N: "1.5" }, b: { BOOL: true }, z: { NULL: true }, l: { L: [{ N: "1" }, { S: "x" }] }, m: { M: { deep: { M: { n: { N: "-2" } } } } } },
    });
    expect(marshallValue({ base64: "AAE=", contentType: "application/octet-stream" })).toEqual({ B: "AAE=" });
  });

  it("tags only the attribute-value fields of a request", () => {
    expect(marshallRequest({ TableName: "Users", Key: { id: "u1" }, ConditionExpression: "attribute_exists(id)", ExpressionAttributeValues: { ":v": 3 } })).toEqual({
      TableName: "Users",
      Key: { id: { S: "u1" } },
      ConditionExpression: "attribute_exists(id)",
      ExpressionAttributeValues: { ":v": { N: "3" } },
    });
    expect(() => marshallRequest({ Item: "not a map" })).toThrow("body.Item must be a map of attribute values");
    expect(() => marshallValue({ n: Number.NaN })).toThrow("value.n: DynamoDB cannot store NaN");
  });

  it("untags items in a reply; a number too large for a double stays text", () => {
    expect(
      unmarshallReply({
        Items: [{ id: { S: "a" }, tags: { SS: ["x", "y"] }, sizes: { NS: ["1", "2"] }, big: { N: "123456789012345678901234" } }],
        Count: 1,
        LastEvaluatedKey: { id: { S: "a" } },
      }),
    ).toEqual({ Items: [{ id: "a", tags: ["x", "y"], sizes: [1, 2], big: "123456789012345678901234" }], Count: 1, LastEvaluatedKey: { id: "a" } });
  });

  it("a call sends tagged JSON with AWS's content type and reads the reply back as plain values", async () => {
    const server = await setup.fixture([{ method: "POST", path: "/", headers: { "content-type": "application/x-amz-json-1.0" }, body: { Item: { id: { S: "u1" }, age: { N: "36" } } } }]);
    const outcome = await runCalls(
      [call.parse({ name: "item", method: "POST", url: `${server.url}/`, encoding: "dynamodbJson", body: { TableName: "Users", Key: "return { id: config.id }" } })],
      { config: { id: "u1" } },
      setup.context(),
    );
    const [request] = setup.requests();
    expect(request.headers["content-type"]).toBe("application/x-amz-json-1.0");
    expect(JSON.parse(request.body)).toEqual({ TableName: "Users", Key: { id: { S: "u1" } } });
    expect(outcome.calls.item).toEqual({ Item: { id: "u1", age: 36 } });
  });
});
