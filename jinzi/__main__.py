from jinzi.cli import main

raise SystemExit(main())
