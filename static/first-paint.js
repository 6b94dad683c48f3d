var p=new URLSearchParams(location.search),d=document.documentElement,t=p.get("theme");if(p.get("embed")==="1"){d.classList.add("embed-link");if(t=="dark"||t=="light")d.setAttribute("data-theme",t)}
