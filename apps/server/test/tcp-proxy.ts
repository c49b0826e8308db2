import net from 'node:net';

/**
 * A TCP relay for tests that need a service to go away and come back without stopping it for
 * everybody else (the shared PostgreSQL): `cut()` drops every relayed connection and refuses new
 * ones (accepted, then closed at once), `restore()` relays again. Listens on 127.0.0.1 only.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private open = true;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      if (!this.open) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  cut() {
    this.open = false;
    for (const s of this.sockets) s.destroy();
  }

  restore() {
    this.open = true;
  }

  async close() {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
