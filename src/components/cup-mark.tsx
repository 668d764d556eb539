/** The practice's mark: a cupping cup with its valve, resting on the skin. Decorative. */
export function CupMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <path
        d="M8 24c0-9.5 3.4-15 8-15s8 5.5 8 15"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.9"
        strokeLinecap="round"
      />
      <path
        d="M13.6 9.3V5.5h4.8v3.8"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.9"
        strokeLinejoin="round"
      />
      <path d="M5 24.5h22" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" />
    </svg>
  );
}
