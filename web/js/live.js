// Live updates of one game over a WebSocket, reconnecting on its own. Each message carries the
// whole state, so a reconnection brings the page up to date at once. A browser holding a seat
// says so on connecting, so the other player sees it is here.

export class LiveGame {
  /**
   * @param {string} id the game
   * @param {(state: object) => void} onState called with every state received
   * @param {(status: 'connecting'|'live'|'offline') => void} onStatus connection changes
   * @param {{tokens?: () => (string | null | undefined)[], onPresence?: (presence: any) => void}} [more] `tokens()`: the seat tokens this browser holds (sent so the server
   *   can tell the other player this seat is here); `onPresence(presence)`: which seats are
   *   connected, `{first, second}`
   */
  constructor(id, onState, onStatus, more = {}) {
    this.id = id;
    this.onState = onState;
    this.onStatus = onStatus;
    this.tokens = more.tokens || (() => []);
    this.onPresence = more.onPresence || (() => {});
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = 0;
    this.status = '';
    this.wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState > 1)) this.connect(true);
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
    this.connect(false);
  }

  setStatus(s) {
    if (s !== this.status) {
      this.status = s;
      this.onStatus(s);
    }
  }

  connect(now) {
    clearTimeout(this.timer);
    if (this.closed) return;
    if (this.ws) {
      this.ws.onclose = null;
      try {
        this.ws.close();
      } catch {
        // already closed
      }
    }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/live`;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'offline');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && msg.type === 'state' && msg.state) {
        this.attempt = 0;
        this.setStatus('live');
        this.onState(msg.state);
      } else if (msg && msg.type === 'presence' && msg.presence) {
        this.onPresence(msg.presence);
      }
    };
    ws.onopen = () => this.hello();
    ws.onclose = () => {
      if (this.closed) return;
      this.attempt += 1;
      this.setStatus('offline');
      const delay = now && this.attempt === 1 ? 0 : Math.min(8000, 400 * 2 ** Math.min(this.attempt, 5));
      this.timer = setTimeout(() => this.connect(false), delay);
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry.
    };
  }

  /** Tells the server which seats this browser holds (again after it joined one). */
  hello() {
    const tokens = this.tokens().filter(Boolean);
    if (tokens.length && this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: 'hello', tokens }));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }
}
