import type { SearchableTool } from "./searchable-tool";

/** Builds an object input schema from `name: description` pairs (all strings). */
function schema(parameters: Record<string, string>): object {
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(parameters).map(([name, description]) => [name, { type: "string", description }])),
  };
}

/**
 * A small catalogue for tests: the tools of the examples among
 * unrelated ones from other servers. A test fixture, not product data.
 */
export const sampleTools: SearchableTool[] = [
  { server: "pagerduty", name: "create_incident", description: "Open an incident and page the on-call responder", inputSchema: schema({ service_id: "The affected service", title: "Short summary" }) },
  { server: "weather", name: "get_forecast", description: "Get the daily forecast for coordinates", inputSchema: schema({ latitude: "Latitude", longitude: "Longitude", days: "Number of days" }) },
  { server: "calculator", name: "convertUnits", description: "Convert a value between units of length, mass, volume or temperature", inputSchema: schema({ value: "The amount", from: "Source unit", to: "Target unit" }) },
  { server: "github", name: "searchIssues", description: "Search issues in a repository by text", inputSchema: schema({ repo: "Repository", query: "Search text", state: "open or closed" }) },
  { server: "github", name: "create_pull_request", description: "Open a pull request from a branch", inputSchema: schema({ repo: "Repository", head: "Branch with the changes", base: "Target branch" }) },
  { server: "gmail", name: "send_email", description: "Send an email to one or more recipients", inputSchema: schema({ to: "Recipient addresses", subject: "Subject line", body: "Body" }) },
  { server: "slack", name: "post_message", description: "Post a message to a Slack channel", inputSchema: schema({ channel: "Channel", text: "Message text" }) },
  { server: "postgres", name: "run_query", description: "Run a read-only SQL query against the database", inputSchema: schema({ sql: "SELECT statement" }) },
  { server: "postgres", name: "list_tables", description: "List the tables of a database schema", inputSchema: schema({ schema: "Schema name" }) },
  { server: "filesystem", name: "read_file", description: "Read the contents of a text file", inputSchema: schema({ path: "File path" }) },
  { server: "filesystem", name: "write_file", description: "Create or overwrite a file", inputSchema: schema({ path: "File path", content: "Text" }) },
  { server: "calendar", name: "create_event", description: "Create a calendar event with attendees", inputSchema: schema({ title: "Title", start: "Start time", end: "End time" }) },
  { server: "stripe", name: "refund_payment", description: "Refund a charge fully or partially", inputSchema: schema({ payment_intent: "Payment", amount: "Amount in cents" }) },
  { server: "maps", name: "get_directions", description: "Route between an origin and a destination", inputSchema: schema({ origin: "Start", destination: "End" }) },
  { server: "language", name: "translate_text", description: "Translate text into a target language", inputSchema: schema({ text: "Text", target_language: "Language code" }) },
  { server: "kubernetes", name: "get_pod_logs", description: "Fetch the logs of a pod's container", inputSchema: schema({ pod: "Pod name" }) },
  { server: "markets", name: "get_stock_quote", description: "Latest price and volume for a ticker symbol", inputSchema: schema({ symbol: "Ticker" }) },
  { server: "images", name: "resize_image", description: "Scale an image to a width and height", inputSchema: schema({ image_url: "Image", width: "Pixels" }) },
];
