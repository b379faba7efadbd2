/** The hero image: a drawing of the console (sidebar, device counts, donut, live events), made for the project. */
export function ConsoleIllustration() {
  const rows = [
    { name: 'Harbor Point Mall', count: 3, on: false },
    { name: 'Northgate Clinic', count: 0, on: true },
    { name: 'Elm Street Lofts', count: 1, on: false },
    { name: 'Riverside Depot', count: 0, on: true },
  ];
  return (
    <svg
      viewBox="0 0 640 420"
      role="img"
      aria-label="The Vigil console: device counts, a reliability donut and live offline events"
      style={{ width: '100%', height: 'auto', display: 'block' }}
    >
      <defs>
        <linearGradient id="vg-screen" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="#ffffff" />
          <stop offset="1" stopColor="#f1f5f9" />
        </linearGradient>
        <filter id="vg-shadow" x="-10%" y="-10%" width="120%" height="130%">
          <feDropShadow dx="0" dy="12" stdDeviation="14" floodColor="#0f172a" floodOpacity="0.18" />
        </filter>
      </defs>
      <rect x="20" y="16" width="600" height="388" rx="18" fill="url(#vg-screen)" filter="url(#vg-shadow)" />
      <rect x="20" y="16" width="110" height="388" rx="18" fill="#0b3b37" />
      <rect x="112" y="16" width="18" height="388" fill="#0b3b37" />
      <path d="M75 36 55 44v13c0 11.5 8.2 21.4 20 24 11.8-2.6 20-12.5 20-24V44l-20-8Z" fill="#0f766e" />
      <path d="M62 58h6l3-7 5 14 3-9 2 3h6" fill="none" stroke="#ccfbf1" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <rect key={i} x="38" y={108 + i * 34} width={i === 0 ? 74 : 60} height="14" rx="7" fill={i === 0 ? '#0f766e' : '#1f5f59'} />
      ))}
      <rect x="150" y="34" width="300" height="28" rx="14" fill="#e2e8f0" />
      <circle cx="584" cy="48" r="14" fill="#0f766e" />
      {['Camera', 'Intercom', 'Access', 'Alarm', 'Env.'].map((label, i) => (
        <g key={label} transform={`translate(${150 + i * 92} 80)`}>
          <rect width="82" height="64" rx="10" fill="#ffffff" stroke="#e2e8f0" />
          <text x="12" y="32" fontSize="20" fontWeight="700" fill="#0f172a">
            {[128, 42, 67, 35, 19][i]}
          </text>
          <text x="12" y="50" fontSize="11" fill="#64748b">
            {label}
          </text>
        </g>
      ))}
      <g transform="translate(150 160)">
        <rect width="200" height="224" rx="12" fill="#ffffff" stroke="#e2e8f0" />
        <text x="16" y="28" fontSize="13" fontWeight="600" fill="#0f172a">
          Company Wide Pulse
        </text>
        <circle cx="100" cy="120" r="58" fill="none" stroke="#52c41a" strokeWidth="22" />
        <circle
          cx="100"
          cy="120"
          r="58"
          fill="none"
          stroke="#ff4d4f"
          strokeWidth="22"
          strokeDasharray="24 340"
          transform="rotate(-90 100 120)"
        />
        <text x="100" y="118" textAnchor="middle" fontSize="20" fontWeight="700" fill="#0f172a">
          98.6%
        </text>
        <text x="100" y="136" textAnchor="middle" fontSize="11" fill="#64748b">
          online
        </text>
        <rect x="24" y="196" width="152" height="8" rx="4" fill="#e2e8f0" />
        <rect x="24" y="196" width="140" height="8" rx="4" fill="#0f766e" />
      </g>
      <g transform="translate(366 160)">
        <rect width="236" height="224" rx="12" fill="#ffffff" stroke="#e2e8f0" />
        <text x="16" y="28" fontSize="13" fontWeight="600" fill="#0f172a">
          Live Events
        </text>
        {rows.map((r, i) => (
          <g key={r.name} transform={`translate(16 ${50 + i * 42})`}>
            <rect width="204" height="34" rx="8" fill={r.on ? '#f6ffed' : '#fff1f0'} />
            <circle cx="16" cy="17" r="5" fill={r.on ? '#52c41a' : '#ff4d4f'} />
            <text x="30" y="21" fontSize="11" fill="#0f172a">
              {r.name}
            </text>
            <text x="192" y="21" fontSize="11" fontWeight="700" textAnchor="end" fill={r.on ? '#389e0d' : '#cf1322'}>
              {r.on ? 'OK' : `${r.count} offline`}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
