// 业主端 session: the owner token (a token kind of its own: it answers only the owner endpoints) and who
// signed in, kept in localStorage (an owner's phone stays signed in, as the server's 7-day idle time
// allows) apart from the back-office session.
const KEY = 'meter.owner.session';

export interface OwnerSession {
  token: string;
  owner: { id: number; name: string; phone: string };
  companyName: string;
}

export function ownerSession(): OwnerSession | null {
  try {
    const raw = localStorage.getItem(KEY);
    const s = raw ? (JSON.parse(raw) as OwnerSession) : null;
    return s && typeof s.token === 'string' ? s : null;
  } catch {
    return null;
  }
}

export const ownerToken = () => ownerSession()?.token ?? null;

export function saveOwnerSession(s: OwnerSession) {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function clearOwnerSession() {
  localStorage.removeItem(KEY);
}
