"""The embedded cluster, closed to the other users of the machine.

The embedded cluster's scheduler, nannies and workers talk over TCP on 127.0.0.1, and dask
asks nothing of who connects: on a shared server, another user connected to the scheduler
of a running `grade` and ran code as the instructor (`Client(address).run_on_scheduler`),
reading the course, its solutions, its gradebook and its secret. Its servers' HTTP pages
(`/json/identity.json`, `/info/...`) listened on every interface too.

So the cluster speaks TLS with a key made for it alone (`private_security`): each side shows
a certificate of that key and asks the other for one (dask's contexts require it both ways),
and the key lives in the memory of this process and of the workers forked for it, never in a
file another user could read. A process without it cannot finish a connection. Its HTTP
servers answer on 127.0.0.1 only, with no page (`CLOSED_HTTP`); a dashboard (bokeh, where an
instructor installed it) is the one page left, and `grade` says it is open to this machine.

An elliptic-curve key: made in about 1 ms, where dask's own `Security.temporary` makes an RSA
one in some 0.15 s, on the way to a class's first notebook.
"""

from __future__ import annotations

import datetime

from distributed.security import Security

NAME = "attention-kit-cluster"  # the certificate's subject and issuer (its own authority)
HOST = "127.0.0.1"  # where the embedded cluster's servers listen
CLOSED_HTTP = {  # the pages its HTTP servers serve: none
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
}


def private_security():
    """A dask Security that requires TLS, with a new key and a certificate of its own for the
    scheduler, the workers and the client alike."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, NAME)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (x509.CertificateBuilder()
                   .subject_name(name).issuer_name(name)
                   .public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=30))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None),
                                  critical=True)
                   .sign(key, hashes.SHA256()))
    pem_key = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    pem_certificate = certificate.public_bytes(serialization.Encoding.PEM).decode()
    roles = {f"tls_{role}_{part}": pem for role in ("client", "scheduler", "worker")
             for part, pem in (("key", pem_key), ("cert", pem_certificate))}
    return Security(require_encryption=True, tls_ca_file=pem_certificate, **roles)
