"""PinchTab's site scrape without the browser: HTTP crawl and discovery (``crawl``), extraction to
markdown (``extract``) and the report (``run``), which takes the browser's rendering as a function."""
