/*
 * The people and teams of the demo workspace: "Orbit", a product company of about forty people
 * building a scheduling app, with an agency and an auditor as guests.
 */

/** A person of the demo: key, name, role and teams. */
export interface DemoPerson {
  key: string
  name: string
  role: 'owner' | 'admin' | 'member' | 'guest'
  teams: string[]
  /** Guests come from other companies. */
  domain?: string
}

/** Teams of the demo workspace. */
export const DEMO_TEAMS: Record<string, string> = {
  leadership: 'Leadership',
  product: 'Product',
  design: 'Design',
  web: 'Engineering — Web',
  mobile: 'Engineering — Mobile',
  platform: 'Platform',
  growth: 'Growth',
  security: 'Security',
  support: 'Customer Support',
}

/** Everyone in the demo workspace. */
export const DEMO_PEOPLE: DemoPerson[] = [
  { key: 'ada', name: 'Ada Okafor', role: 'owner', teams: ['leadership'] },
  { key: 'ben', name: 'Ben Lindqvist', role: 'admin', teams: ['leadership', 'platform'] },
  { key: 'chen', name: 'Chen Wei', role: 'admin', teams: ['leadership', 'product'] },
  { key: 'dara', name: 'Dara Murphy', role: 'admin', teams: ['security', 'platform'] },
  { key: 'elena', name: 'Elena Petrova', role: 'member', teams: ['product'] },
  { key: 'farid', name: 'Farid Haddad', role: 'member', teams: ['product', 'growth'] },
  { key: 'grace', name: 'Grace Kim', role: 'member', teams: ['design'] },
  { key: 'hugo', name: 'Hugo Martins', role: 'member', teams: ['design'] },
  { key: 'ines', name: 'Inès Dubois', role: 'member', teams: ['design', 'growth'] },
  { key: 'jonas', name: 'Jonas Weber', role: 'member', teams: ['web'] },
  { key: 'kemi', name: 'Kemi Adeyemi', role: 'member', teams: ['web'] },
  { key: 'liam', name: "Liam O'Connor", role: 'member', teams: ['web'] },
  { key: 'maya', name: 'Maya Shapiro', role: 'member', teams: ['web', 'growth'] },
  { key: 'nikhil', name: 'Nikhil Rao', role: 'member', teams: ['mobile'] },
  { key: 'olga', name: 'Olga Novak', role: 'member', teams: ['mobile'] },
  { key: 'pablo', name: 'Pablo Ruiz', role: 'member', teams: ['mobile'] },
  { key: 'quinn', name: 'Quinn Taylor', role: 'member', teams: ['platform'] },
  { key: 'rosa', name: 'Rosa Jiménez', role: 'member', teams: ['platform'] },
  { key: 'sami', name: 'Sami Virtanen', role: 'member', teams: ['platform', 'security'] },
  { key: 'tara', name: 'Tara Singh', role: 'member', teams: ['growth'] },
  { key: 'umar', name: 'Umar Farouk', role: 'member', teams: ['growth'] },
  { key: 'vera', name: 'Vera Ivanova', role: 'member', teams: ['support'] },
  { key: 'wen', name: 'Wen Zhou', role: 'member', teams: ['support'] },
  { key: 'xavier', name: 'Xavier Laurent', role: 'member', teams: ['support', 'product'] },
  { key: 'yuki', name: 'Yuki Tanaka', role: 'member', teams: ['mobile', 'design'] },
  { key: 'zara', name: 'Zara Ahmed', role: 'member', teams: ['security'] },
  { key: 'amir', name: 'Amir Tehrani', role: 'member', teams: ['web', 'platform'] },
  { key: 'bea', name: 'Beatriz Costa', role: 'member', teams: ['product'] },
  { key: 'cole', name: 'Cole Anderson', role: 'member', teams: ['growth'] },
  { key: 'dina', name: 'Dina Levi', role: 'member', teams: ['support'] },
  { key: 'emil', name: 'Emil Johansson', role: 'member', teams: ['platform'] },
  { key: 'fatou', name: 'Fatou Diallo', role: 'member', teams: ['web'] },
  { key: 'gita', name: 'Gita Sharma', role: 'member', teams: ['design'] },
  { key: 'noor', name: 'Noor Haddad', role: 'guest', teams: [], domain: 'brightline.agency' },
  { key: 'otto', name: 'Otto Berg', role: 'guest', teams: [], domain: 'brightline.agency' },
  { key: 'priya', name: 'Priya Nair', role: 'guest', teams: [], domain: 'auditwise.example' },
  { key: 'rafael', name: 'Rafael Souza', role: 'guest', teams: [], domain: 'contractors.example' },
]
