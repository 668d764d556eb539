import { lucideSvg, type IconProps } from './lucide-icon.tsx';

export const Menu = (props: IconProps) =>
  lucideSvg(
    'menu',
    '<path d="M4 5h16"></path><path d="M4 12h16"></path><path d="M4 19h16"></path>',
    props,
  );
