/*
 * Runs DynamoDB Local bound to 127.0.0.1 on a port the OS picks. Started by dynamodb-local.ts with
 * Java's single-file source launcher:
 *
 *   java -Djava.library.path=<DynamoDBLocal_lib> -cp <DynamoDBLocal.jar> DynamoDbLocalLoopback.java \
 *        [-inMemory | -dbPath <dir>] [-sharedDb] [-delayTransientStatuses] [-disableTelemetry] ...
 *
 * Why not `java -jar DynamoDBLocal.jar -port N`: its ServerRunner builds the server through
 * DynamoDBProxyServer, whose constructor calls Jetty's `new Server(port)`, i.e. a connector on all
 * interfaces; the CLI has no host option and rejects -port 0 ("must lie between 1 and 65535").
 * So we do what ServerRunner.createServer does, using the jar's public classes, but give Jetty our
 * own connector. Flags other than -port are parsed by DynamoDB Local's own CommandLineInput, so
 * they behave exactly as in the stock CLI.
 *
 * Protocol with the parent process:
 *  - once bound, prints one line `DYNAMODB_LOCAL_LISTENING 127.0.0.1 <port>` on stdout;
 *  - exits when stdin reaches EOF, so it cannot outlive a parent that died without killing it
 *    (the parent must therefore keep stdin open as a pipe);
 *  - SIGTERM stops Jetty and closes the database (shutdown hook), then the JVM exits.
 */

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBRequestHandler;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBServerHandler;

public class DynamoDbLocalLoopback {
  private static final String HOST = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    for (String arg : args) {
      if (arg.equalsIgnoreCase("-port")) {
        fail("-port is not supported: the OS picks the port and it is printed on stdout");
      }
    }
    CommandLineInput cli = new CommandLineInput(args);
    // init() prints its own message (usage, invalid -dbPath, ...) when it returns false.
    if (!cli.init()) {
      fail("invalid DynamoDB Local arguments");
    }

    // Telemetry is deliberately never configured (ServerRunner would call
    // Telemetry.configureTelemetry); unconfigured, Telemetry.getTelemetry() is empty and nothing
    // is ever sent, whatever the flags say.
    LocalDynamoDBServerHandler handler =
        new LocalDynamoDBServerHandler(
            new LocalDynamoDBRequestHandler(
                0,
                cli.isInMemory(),
                cli.getDbPath(),
                cli.getSharedDb(),
                cli.shouldDelayTransientStatuses()),
            cli.getCorsParams());

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(HOST);
    connector.setPort(0);
    server.addConnector(connector);
    // Same handler tree as DynamoDBProxyServer.setUpHandler.
    ContextHandler context = new ContextHandler();
    context.setHandler(handler);
    server.setHandler(new ContextHandlerCollection(context));

    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.stop();
                  } catch (Exception e) {
                    System.err.println("DynamoDbLocalLoopback: Jetty stop failed: " + e);
                  }
                  try {
                    handler.close();
                  } catch (Exception e) {
                    System.err.println("DynamoDbLocalLoopback: database close failed: " + e);
                  }
                },
                "ddb-local-shutdown"));

    server.start();
    System.out.println("DYNAMODB_LOCAL_LISTENING " + HOST + " " + connector.getLocalPort());
    System.out.flush();

    Thread watchdog =
        new Thread(
            () -> {
              try {
                byte[] buffer = new byte[256];
                while (System.in.read(buffer) != -1) {
                  // Input is ignored; only EOF matters.
                }
              } catch (Exception e) {
                // A broken stdin also means the parent is gone.
              }
              System.exit(0);
            },
            "ddb-local-stdin-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();

    server.join();
  }

  private static void fail(String message) {
    System.err.println("DynamoDbLocalLoopback: " + message);
    System.exit(2);
  }
}
