# A stand-in for Docker Hub's nginx:1.27, where Docker Hub is out of reach (scripts/compose-test.sh):
# Debian's nginx, which like the official image serves what /etc/nginx/conf.d/*.conf says, and nothing else.
FROM node:24-bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/*
ENTRYPOINT []
CMD ["nginx", "-g", "daemon off;"]
