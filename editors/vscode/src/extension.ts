// The flinklint extension: starts `flinklint server` (from PATH, or the `flinklint.path`
// setting) and connects VS Code's language client to it over standard input and output.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function serverOptions(): ServerOptions {
  const configured = vscode.workspace
    .getConfiguration("flinklint")
    .get<string>("path", "")
    .trim();
  const command = configured.length > 0 ? configured : "flinklint";
  return { command, args: ["server"] };
}

function clientOptions(): LanguageClientOptions {
  const documents = vscode.workspace
    .getConfiguration("flinklint")
    .get<boolean>("documents", false);
  const selector: { scheme: string; language?: string; pattern?: string }[] = [
    { scheme: "file", language: "sql" },
    { scheme: "file", language: "flinksql" },
    { scheme: "file", pattern: "**/*.sql" },
    // Unsaved buffers: the server checks each on its own.
    { scheme: "untitled", language: "sql" },
    { scheme: "untitled", language: "flinksql" },
  ];
  if (documents) {
    selector.push({ scheme: "file", language: "markdown" });
    selector.push({ scheme: "file", language: "restructuredtext" });
  }
  return {
    documentSelector: selector,
    synchronize: {
      // The server registers its own watchers; this covers clients that do not allow it.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/.flinklint.yaml"),
    },
  };
}

async function start(): Promise<void> {
  client = new LanguageClient(
    "flinklint",
    "flinklint",
    serverOptions(),
    clientOptions(),
  );
  try {
    await client.start();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(
      `flinklint: cannot start \`flinklint server\` (${message}). ` +
        "Install flinklint on PATH or set `flinklint.path`.",
    );
  }
}

async function stop(): Promise<void> {
  if (client !== undefined) {
    const running = client;
    client = undefined;
    await running.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("flinklint.restart", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("flinklint.path") || e.affectsConfiguration("flinklint.documents")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
